package protocol

// ClockRequest is create's optional turn clock (an extension), in seconds:
// Fischer-style, the bank falls while a seat's turn runs and perMove is
// added after each of its moves.
type ClockRequest struct {
	PerMove int64 `json:"perMove"`
	Bank    int64 `json:"bank"`
}

// ClockView is a state message's clock (an extension, only in matches
// created with one): each seat's remaining time at serverTime (Unix ms),
// so a client counts down from its own receipt without drift.
type ClockView struct {
	ServerTime int64       `json:"serverTime"`
	PerMoveMs  int64       `json:"perMoveMs"`
	BankMs     int64       `json:"bankMs"`
	Seats      []SeatClock `json:"seats"`
}

// SeatClock is one seat's clock: its remaining time in ms and whether it
// is running (the seat may move now).
type SeatClock struct {
	RemainingMs int64 `json:"remainingMs"`
	Running     bool  `json:"running"`
}
