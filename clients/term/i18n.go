package main

import (
	"fmt"
	"os"
	"strings"
)

// lang is the language of every text on screen.
type lang int

const (
	langEn lang = iota
	langZh
)

// parseLang reads the -lang flag: "zh" or "en", or "" for the locale.
func parseLang(s string) (lang, error) {
	switch strings.ToLower(s) {
	case "":
		return localeLang(os.Getenv), nil
	case "zh", "zh-cn", "cn":
		return langZh, nil
	case "en":
		return langEn, nil
	}
	return langEn, fmt.Errorf("-lang %q: want zh or en", s)
}

// localeLang is Chinese when the locale (LC_ALL, then LC_MESSAGES, then
// LANG, the POSIX order) names a Chinese one, English otherwise.
func localeLang(getenv func(string) string) lang {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "zh") {
				return langZh
			}
			return langEn
		}
	}
	return langEn
}

// text is one message in both languages; Chinese first, as in the design.
type text struct{ zh, en string }

// tr picks t's text in l and formats it with args (when there are any).
func (l lang) tr(t text, args ...any) string {
	s := t.en
	if l == langZh {
		s = t.zh
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// The texts. The refusals of moves (禁止自杀, 禁止打劫, 此处已有棋子) are
// not here: the server sends them in both languages.
var (
	txtBlack            = text{"黑方", "Black"}
	txtWhite            = text{"白方", "White"}
	txtToPlay           = text{"%s行棋", "%s to play"}
	txtBotThinking      = text{"%s（机器人）思考中…", "%s (bot) is thinking…"}
	txtWaitFor          = text{"等待%s落子…", "Waiting for %s…"}
	txtCursor           = text{"光标 %s", "cursor %s"}
	txtNotYourTurn      = text{"还没轮到你", "It is not your turn"}
	txtSpectating       = text{"观战中", "Spectating"}
	txtConfirmResign    = text{"确认认输？按 y 确认，其他键取消", "Resign? y to confirm, any other key cancels"}
	txtResignOff        = text{"已取消认输", "Resignation cancelled"}
	txtUndoAsked        = text{"已请求悔棋，等待对手回应", "Undo requested: waiting for the opponent"}
	txtScoringAsked     = text{"已请求结算，等待对手回应", "Scoring requested: waiting for the opponent"}
	txtOppUndo          = text{"%s请求悔棋：y 同意，n 拒绝", "%s asks to undo: y agrees, n refuses"}
	txtOppScoring       = text{"%s请求结算：y 同意，n 拒绝", "%s asks to count: y agrees, n refuses"}
	txtScoring          = text{"结算中", "Scoring"}
	txtApproved         = text{"已确认", "ok"}
	txtNotApproved      = text{"未确认", "wait"}
	txtApproveWait      = text{"已确认，等待对手确认", "Approved: waiting for the opponent"}
	txtNoStone          = text{"%s 没有棋子", "%s holds no stone"}
	txtNoUndoScoring    = text{"结算中不能悔棋：按 Esc 继续对局", "No undo while scoring: Esc plays on"}
	txtGameOver         = text{"对局已结束", "The game is over"}
	txtEvolving         = text{"演化 第 %d/%d 代", "Evolution %d/%d"}
	txtConnLost         = text{"连接已断开", "Connection closed"}
	txtConnLostKept     = text{"连接已断开：按 q 退出，之后用同一链接 -join 回到座位", "Connection closed: q quits; -join with the same link takes your seat again"}
	txtReconnecting     = text{"正在重新连接…", "reconnecting…"}
	txtReconnected      = text{"已重新连接", "Reconnected"}
	txtSeatGone         = text{"你的座位已不在（已交给机器人或已让出），连接已关闭", "Your seat is gone (the bot has it, or it was given up): connection closed"}
	txtMatchGone        = text{"对局已不存在（已过期），连接已关闭", "The match is gone (expired): connection closed"}
	txtSeatResumed      = text{"已回到你的座位：%s", "Back in your seat: %s"}
	txtSeatGoneRejoined = text{"你在此对局原来的座位已不在", "The seat you held in this match is gone"}
	txtMineTitle        = text{"你持有的座位（%s）：", "Seats you hold (%s):"}
	txtMineSeat         = text{"%s（座位 %s）", "%s (seat %s)"}
	txtMineYourMove     = text{"轮到你了", "your move"}
	txtMineWaiting      = text{"等待对手入座", "waiting for a player"}
	txtMineInPlay       = text{"对局中", "in play"}
	txtMineExpired      = text{"对局已过期，已忘记此座位", "expired: forgotten"}
	txtMineToBot        = text{"座位已交给机器人，已忘记", "the seat passed to the bot: forgotten"}
	txtMineUnknown      = text{"无法查询：%v", "cannot tell: %v"}
	txtMineNone         = text{"你没有可回去的座位。", "You hold no seat to go back to."}
	txtMineHow          = text{"用 -join <链接> 回到其中一个座位。", "-join <link> takes you back to one of them."}
	txtMinePick         = text{"回到哪一个？输入 1-%d，直接回车退出：", "Which one? 1-%d, Enter quits: "}
	txtMineBadPick      = text{"没有第 %q 个：请输入 1-%d", "No seat %q: pick 1-%d"}
	txtSeatsFileBad     = text{"座位文件出错，未记住座位：%v", "The seats file failed, the seat is not remembered: %v"}
	txtNoAnswer         = text{"服务器没有回应", "The server did not answer"}
	txtSeatLost         = text{"你已失去座位，现为观战", "Your seat was taken: you are watching"}
	txtUndoRefused      = text{"对方拒绝了悔棋请求", "The opponent refused the undo"}
	txtScoringRefused   = text{"对方拒绝了结算请求", "The opponent refused to count"}
	txtDeadRemoved      = text{"对方取消了 %s 的死子标记", "The other side removed the dead mark on %s"}
	txtPassed           = text{"%s停一手", "%s passed"}
	txtTooSmall         = text{"终端太小：需要 %d×%d，当前 %d×%d", "terminal too small (need %dx%d, have %dx%d)"}
	txtTooSmallHint     = text{"请放大终端窗口，或按 q 退出", "enlarge the window, or press q to quit"}
	txtRecord           = text{"棋谱", "Record"}
	txtLastMove         = text{"上一手", "Last move"}
	txtMoveN            = text{"第 %d 手", "move %d"}
	txtNoMoveYet        = text{"尚未落子", "no move yet"}
	txtCaptures         = text{"提 %d", "caps %d"}
	txtBot              = text{"机器人", "bot"}
	txtAway             = text{"离线", "away"}
	txtFreeSeat         = text{"（空位）", "(free seat)"}
	txtYou              = text{"你", "you"}
	txtHotSeat          = text{"热座", "hot-seat"}
	txtVsBot            = text{"人机", "vs bot"}
	txtOnline           = text{"联机", "online"}
	txtWatch            = text{"观战", "watching"}
	txtTitle            = text{"围棋 %d路", "Weiqi %dx%d"}
	txtScoreTitle       = text{"计分（中国规则）", "Score (area)"}
	txtScoreBlack       = text{"黑 子%d + 地%d = %s", "B %d st + %d terr = %s"}
	txtScoreWhite       = text{"白 子%d + 地%d + 贴%s = %s", "W %d st + %d terr + %s = %s"}
	txtPreviewBlack     = text{"黑 子%d + 地%d", "B %d st + %d terr"}
	txtPreviewWhite     = text{"白 子%d + 地%d + 贴%s", "W %d st + %d terr + komi %s"}
	txtBlackWinsBy      = text{"黑胜 %s 目", "Black wins by %s"}
	txtWhiteWinsBy      = text{"白胜 %s 目", "White wins by %s"}
	txtBlackWinsR       = text{"黑中盘胜（白认输）", "Black wins: White resigned"}
	txtWhiteWinsR       = text{"白中盘胜（黑认输）", "White wins: Black resigned"}
	txtDraw             = text{"和棋", "Draw"}
	txtHelpTitle        = text{"按键帮助", "Keys"}
	txtHelpClose        = text{"按 ? 或 Esc 关闭", "? or Esc closes"}
	txtHelpScoring      = text{"主动结算（中国规则）", "Scoring (Chinese rules)"}
)

// codeTexts translate the server's error codes that carry no Chinese
// reason of their own (docs/protocol.md lists the codes).
var codeTexts = map[string]text{
	"not_your_turn": {"还没轮到你", "It is not your turn"},
	"game_over":     {"对局已结束", "The game is over"},
	"not_started":   {"对局尚未开始：等待对手入座", "The game has not started: waiting for a player"},
	"unauthorized":  {"观战者不能落子", "Spectators cannot move"},
	"stale_state":   {"局面已更新，请重试", "The position changed: try again"},
	"rate_limited":  {"操作太快，请稍候", "Too fast: wait a moment"},
	"unavailable":   {"服务器暂不可用", "The server is unavailable"},
}
