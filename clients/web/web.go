// Package web holds Chaguan's browser client: plain ES modules, CSS and one
// plugin module per game, embedded in the binary. The server serves
// index.html for "/" and "/m/{game}/{matchID}" and the files of Assets under
// "/assets/".
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Assets returns the client's files rooted at the static directory, so
// "index.html", "js/app.js" and "games/gomoku.js" are valid names. It is safe
// for concurrent use.
func Assets() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		// fs.Sub fails only on an invalid path; "static" is a constant.
		panic(err)
	}
	return sub
}
