package carcassonne_test

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
)

// ownKeyWeb is the key the player types; it must reach the endpoint and
// come back in no response.
const ownKeyWeb = "sk-web-own-9d2f7a11"

// ownDialogOpen is a JS expression: the own-LLM dialog is on screen.
const ownDialogOpen = `!!document.querySelector("[data-llm-dialog]")`

// fillOwnForm types a configuration into the dialog's form.
func fillOwnForm(p *browsertest.Page, name, base, model, key string) {
	p.T().Helper()
	p.Type(`[data-llm-form] input[name="llm-name"]`, name)
	p.Type(`[data-llm-form] input[name="llm-base"]`, base)
	p.Type(`[data-llm-form] input[name="llm-model"]`, model)
	p.Type(`[data-llm-form] input[name="llm-key"]`, key)
}

// TestOwnLLMDialog: the create form of Carcassonne offers "your own LLM"
// where the server allows it; its dialog keeps the player's
// configurations in localStorage, adds, tests (a real decision through
// POST /llm/try), edits and deletes them, and the chosen one goes with
// the create request: the match's seat 2 is named after it and played
// by the player's endpoint.
func TestOwnLLMDialog(t *testing.T) {
	f := browsertest.NewFakeChat(t)
	base := browsertest.StartOwnServer(t)
	b := browsertest.Start(t)
	p := b.NewPage("ann")
	browsertest.SizePage(p, 1280, 800, false)
	p.Open(base + "/?lang=en")
	p.Do("forget old configurations", browsertest.EvalVoid(`localStorage.removeItem("chaguan:llmConfigs"); localStorage.removeItem("chaguan:llmChosen")`))
	p.Open(base + "/?lang=en")
	p.Type("#name-input", "Ann")
	p.Click(`.game-card[data-game="carcassonne"] [data-action="new"]`)
	form := `form[data-create="carcassonne"]`
	p.WaitJS("the own level offered", `!!document.querySelector('`+form+` select[data-seat="1"] option[value="llm-own"]')`)
	if got := p.Text(form + ` select[data-seat="1"] option[value="llm-own"]`); got != "Bot: your own LLM" {
		p.Fail("the own level reads %q", got)
	}
	p.Do("seat 2: your own LLM", browsertest.SetSelect(form+` select[data-seat="1"]`, "llm-own"))
	p.WaitText(form+` [data-own-llm]`, "needs a configuration")

	// Add: the dialog opens on an empty form.
	p.Click(form + ` [data-own-manage]`)
	p.WaitJS("the dialog", ownDialogOpen)
	p.WaitJS("the add form", `!!document.querySelector("[data-llm-form]")`)
	fillOwnForm(p, "My DeepSeek", f.URL+"/v1", "deepseek-chat", ownKeyWeb)
	browsertest.LookShot(p, "llmown-form-desk-en")
	p.Click(`[data-llm-form-test]`)
	p.WaitText(`[data-llm-form] [data-llm-result]`, "Works")
	p.Click(`[data-llm-save]`)
	p.WaitText(`[data-llm-item] .llm-name`, "My DeepSeek")

	// A second one, pointing at nothing: its test fails with a clear word.
	p.Click(`[data-llm-add]`)
	fillOwnForm(p, "Broken", "http://127.0.0.1:1/v1", "m", "")
	p.Click(`[data-llm-save]`)
	p.WaitJS("two configurations", `document.querySelectorAll("[data-llm-item]").length === 2`)
	p.Click(`[data-llm-item]:nth-child(2) [data-llm-test]`)
	p.WaitText(`[data-llm-item]:nth-child(2) [data-llm-result]`, "Failed: your endpoint: connection refused")
	// Edit it: a new name.
	p.Click(`[data-llm-item]:nth-child(2) [data-llm-edit]`)
	p.Type(`[data-llm-form] input[name="llm-name"]`, "Broken (old)")
	p.Click(`[data-llm-save]`)
	p.WaitText(`[data-llm-item]:nth-child(2) .llm-name`, "Broken (old)")
	// The first one tested from the list.
	p.Click(`[data-llm-item]:nth-child(1) [data-llm-test]`)
	p.WaitText(`[data-llm-item]:nth-child(1) [data-llm-result]`, "Works")
	browsertest.LookShot(p, "llmown-list-desk-en")
	// Delete the second: two clicks.
	p.Click(`[data-llm-item]:nth-child(2) [data-llm-delete]`)
	p.WaitText(`[data-llm-item]:nth-child(2) [data-llm-delete]`, "Really delete?")
	p.Click(`[data-llm-item]:nth-child(2) [data-llm-delete]`)
	p.WaitJS("one configuration", `document.querySelectorAll("[data-llm-item]").length === 1`)
	saved := browsertest.Eval[[]map[string]string](p, `JSON.parse(localStorage.getItem("chaguan:llmConfigs"))`)
	if len(saved) != 1 || saved[0]["name"] != "My DeepSeek" || saved[0]["key"] != ownKeyWeb || saved[0]["model"] != "deepseek-chat" {
		p.Fail("localStorage holds %v", saved)
	}
	p.Click(`[data-llm-done]`)
	p.WaitJS("the dialog closed", `!`+ownDialogOpen)
	p.WaitJS("the chosen configuration in the form", `(() => { const s = document.querySelector('`+form+` [data-own-select]'); return !!s && s.selectedOptions[0].textContent.includes("My DeepSeek"); })()`)

	// Create: the seat is named after the configuration, played by it.
	before := f.Count()
	p.Click(form + ` [data-action="create"]`)
	p.WaitJS("the room", `location.pathname.startsWith("/m/carcassonne/") && !!window.__chaguan && window.__chaguan.you === "0"`)
	id := browsertest.Eval[string](p, `location.pathname.split("/")[3]`)
	resp, err := http.Get(base + "/games/carcassonne/" + id)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var m struct {
		Players []struct {
			Name     string `json:"name"`
			BotLevel string `json:"botLevel"`
		} `json:"players"`
	}
	_ = json.Unmarshal(body, &m)
	if len(m.Players) != 2 || m.Players[1].Name != "My DeepSeek" || m.Players[1].BotLevel != "llm-own" {
		t.Fatalf("the match's players: %s", body)
	}
	if strings.Contains(string(body), ownKeyWeb) {
		t.Fatal("the key came back in the match")
	}
	browsertest.CarcassonneMyTurn(p, "my first turn")
	browsertest.CarcassonnePlayTurn(t, p, 0, false)
	browsertest.CarcassonneMyTurn(p, "my turn after the own LLM's")
	if f.Count() <= before {
		p.Fail("the own endpoint got no request for the match")
	}
	p.NoJSErrors()
}

// TestOwnLLMDialogLooks: the dialog in both languages at a laptop's and a
// phone's size, its form and its list, for a person to look at
// ($CHAGUAN_SHOTS); it also checks nothing overflows the phone's width.
func TestOwnLLMDialogLooks(t *testing.T) {
	f := browsertest.NewFakeChat(t)
	base := browsertest.StartOwnServer(t)
	b := browsertest.Start(t)
	for _, v := range []struct {
		name, lang string
		w, h       int64
	}{{"desk-en", "en", 1280, 800}, {"desk-zh", "zh", 1280, 800}, {"phone-en", "en", 390, 844}, {"phone-zh", "zh", 390, 844}} {
		p := b.NewPage("looks-" + v.name)
		browsertest.SizePage(p, v.w, v.h, v.w < 500)
		p.Open(base + "/?lang=" + v.lang)
		p.Do("two saved configurations", browsertest.EvalVoid(`localStorage.setItem("chaguan:llmConfigs", JSON.stringify([
			{id: "a", name: "DeepSeek", baseURL: `+browsertest.JSString(f.URL+"/v1")+`, model: "deepseek-chat", key: "sk-abcdefgh"},
			{id: "b", name: "Ollama on my desk", baseURL: "http://192.168.1.20:11434/v1", model: "qwen2.5:7b", key: ""}]));
			localStorage.setItem("chaguan:llmChosen", "a")`))
		p.Open(base + "/?lang=" + v.lang)
		p.Type("#name-input", "Ann")
		p.Click(`.game-card[data-game="carcassonne"] [data-action="new"]`)
		form := `form[data-create="carcassonne"]`
		p.Do("seat 2: your own LLM", browsertest.SetSelect(form+` select[data-seat="1"]`, "llm-own"))
		p.WaitJS("the own row", `!document.querySelector('`+form+` [data-own-llm]').hidden`)
		p.Do("centre the row", browsertest.EvalVoid(`document.querySelector('`+form+` [data-own-llm]').scrollIntoView({block: "center"})`))
		browsertest.LookShot(p, "llmown-create-"+v.name)
		p.Click(form + ` [data-own-manage]`)
		p.WaitJS("the dialog", ownDialogOpen)
		p.Click(`[data-llm-item]:nth-child(1) [data-llm-test]`)
		p.WaitJS("tested", `document.querySelector("[data-llm-item]:nth-child(1) [data-llm-result]").className.includes("ok")`)
		if v.lang == "zh" {
			// The chosen move is told in Chinese: no English word but "token".
			res := browsertest.Eval[string](p, `document.querySelector("[data-llm-item]:nth-child(1) [data-llm-result]").textContent`)
			if words := regexp.MustCompile(`[A-Za-z]{2,}`).FindAllString(res, -1); len(words) > 0 && !(len(words) == 1 && words[0] == "token") {
				p.Fail("the zh test result has English words %v: %q", words, res)
			}
		}
		p.WaitJS("the dialog's fade-in done", `document.querySelector(".llm-overlay").getAnimations().every((a) => a.playState !== "running")`)
		browsertest.LookShot(p, "llmown-list-"+v.name)
		if v.w < 500 {
			if got := browsertest.Eval[bool](p, `(() => { const d = document.querySelector("[data-llm-dialog]"), r = d.getBoundingClientRect();
				return r.left >= 0 && r.right <= innerWidth && d.scrollWidth <= d.clientWidth + 1; })()`); !got {
				p.Fail("the dialog does not fit a phone's width")
			}
		}
		p.Click(`[data-llm-item]:nth-child(2) [data-llm-edit]`)
		p.WaitJS("the edit form", `!!document.querySelector("[data-llm-form]")`)
		browsertest.LookShot(p, "llmown-form-"+v.name)
		p.Click(`[data-llm-cancel]`)
		p.Click(`[data-llm-done]`)
		p.WaitJS("closed", `!`+ownDialogOpen)
		p.NoJSErrors()
	}
}
