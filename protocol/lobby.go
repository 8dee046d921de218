package protocol

import "encoding/json"

// Match is the lobby's view of a match (boardgame.io's LobbyAPI.Match plus
// "started" and the extension fields after it).
type Match struct {
	MatchID   string          `json:"matchID"`
	GameName  string          `json:"gameName"`
	Players   []Player        `json:"players"`
	SetupData json.RawMessage `json:"setupData,omitempty"`
	Gameover  json.RawMessage `json:"gameover,omitempty"`
	CreatedAt int64           `json:"createdAt"`
	UpdatedAt int64           `json:"updatedAt"`
	Unlisted  bool            `json:"unlisted"`
	Started   bool            `json:"started"`
	// NextMatchID is set once someone asked to play again.
	NextMatchID string `json:"nextMatchID,omitempty"`
	// ToMove lists the seats whose move it is, in seat order (an
	// extension, on GET /games/{name}/{id} only: a list leaves it out, so
	// listing stays cheap). Empty before the start and after the end.
	ToMove []string `json:"toMove,omitempty"`
}

// MatchList is the body of GET /games/{name}.
type MatchList struct {
	Matches []Match `json:"matches"`
}

// CreateRequest is the body of POST /games/{name}/create.
type CreateRequest struct {
	NumPlayers int               `json:"numPlayers"`
	SetupData  json.RawMessage   `json:"setupData,omitempty"`
	Unlisted   bool              `json:"unlisted"`
	Bots       map[string]string `json:"bots,omitempty"` // seat ID -> level
	// Room options (extensions): the seconds a disconnected player keeps
	// their turn before the bot covers, and the bot's pause in ms.
	GraceSeconds *int `json:"graceSeconds,omitempty"`
	BotDelayMs   *int `json:"botDelayMs,omitempty"`
	// Clock is an optional turn clock (an extension; see ClockRequest).
	Clock *ClockRequest `json:"clock,omitempty"`
	// LLM is the player's own OpenAI-compatible endpoint for the seats
	// Bots gives the level "llm-own" (an extension, where the server
	// allows it: CatalogEntry.OwnLLM). Its key is kept in the memory of
	// the server process only, never stored or sent back.
	LLM *OwnLLM `json:"llm,omitempty"`
}

// OwnLLM is a player's own endpoint: a name for it (the seat's label),
// the base URL (requests go to BaseURL/chat/completions), the model and
// the API key ("" for an endpoint that needs none). It is also the body
// of POST /llm/try.
type OwnLLM struct {
	Name    string `json:"name"`
	BaseURL string `json:"baseURL"`
	Model   string `json:"model"`
	Key     string `json:"key"`
}

// CreateResponse is the body of a successful create.
type CreateResponse struct {
	MatchID string `json:"matchID"`
}

// JoinRequest is the body of POST /games/{name}/{id}/join.
type JoinRequest struct {
	PlayerName string          `json:"playerName"`
	PlayerID   *string         `json:"playerID,omitempty"`
	Data       json.RawMessage `json:"data,omitempty"`
}

// JoinResponse is the body of a successful join.
type JoinResponse struct {
	PlayerID          string `json:"playerID"`
	PlayerCredentials string `json:"playerCredentials"`
}

// UpdateRequest is the body of POST /games/{name}/{id}/update.
type UpdateRequest struct {
	PlayerID    string          `json:"playerID"`
	Credentials string          `json:"credentials"`
	NewName     *string         `json:"newName,omitempty"`
	Data        json.RawMessage `json:"data,omitempty"`
}

// LeaveRequest is the body of POST /games/{name}/{id}/leave.
type LeaveRequest struct {
	PlayerID    string `json:"playerID"`
	Credentials string `json:"credentials"`
}

// PlayAgainRequest is the body of POST /games/{name}/{id}/playAgain.
type PlayAgainRequest struct {
	PlayerID    string          `json:"playerID"`
	Credentials string          `json:"credentials"`
	NumPlayers  int             `json:"numPlayers,omitempty"`
	SetupData   json.RawMessage `json:"setupData,omitempty"`
}

// PlayAgainResponse is the body of a successful playAgain.
type PlayAgainResponse struct {
	NextMatchID string `json:"nextMatchID"`
}

// BotRequest is the body of POST /games/{name}/{id}/bot (extension).
type BotRequest struct {
	PlayerID    string `json:"playerID"`
	Credentials string `json:"credentials"`
	Seat        string `json:"seat"`
	Level       string `json:"level"`
}

// ErrorBody is every lobby error response.
type ErrorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// CatalogEntry is one game in GET /catalog.
type CatalogEntry struct {
	Name         string          `json:"name"`
	Title        json.RawMessage `json:"title"`
	MinPlayers   int             `json:"minPlayers"`
	MaxPlayers   int             `json:"maxPlayers"`
	SetupOptions json.RawMessage `json:"setupOptions"`
	Moves        json.RawMessage `json:"moves"`
	Bots         []string        `json:"bots"`
	// OwnLLM says a create may seat the level "llm-own" with the player's
	// own endpoint (CreateRequest.LLM); absent when the server does not
	// allow it.
	OwnLLM bool `json:"ownLLM,omitempty"`
}
