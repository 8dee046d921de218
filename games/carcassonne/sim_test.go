package carcassonne

import (
	"flag"
	"fmt"
	"testing"
)

var report = flag.Bool("report", false, "run the long versions: 200 games of normal against easy with the figures printed (TestNormalBeatsEasy, TestReportTables) and 1,000 property games")

// matchup plays games two-player games of normal against easy, normal
// taking seat 0 in even games and seat 1 in odd ones, and returns normal's
// wins, draws, and both levels' total scores.
func matchup(t *testing.T, games int) (wins, draws, normalPts, easyPts int) {
	for i := 0; i < games; i++ {
		levels := []string{LevelNormal, LevelEasy}
		ns := i % 2
		if ns == 1 {
			levels = []string{LevelEasy, LevelNormal}
		}
		s := playGame(t, newState(t, 2, uint64(1000+i)), levels, botRNG(uint64(i)), nil)
		normalPts += s.Scores[ns]
		easyPts += s.Scores[1-ns]
		switch {
		case len(s.Final.Winners) > 1:
			draws++
		case s.Final.Winners[0] == ns:
			wins++
		}
	}
	return
}

// TestNormalBeatsEasy: the normal bot must win clearly against easy. With
// -report it plays 200 games and prints the figures:
// go test ./games/carcassonne -run TestNormalBeatsEasy -report -v
func TestNormalBeatsEasy(t *testing.T) {
	games := 20
	switch {
	case *report:
		games = 200
	case testing.Short() || raceEnabled:
		games = 4
	}
	wins, draws, np, ep := matchup(t, games)
	msg := fmt.Sprintf("normal vs easy, %d two-player games: normal won %d, drew %d, lost %d; mean score normal %.1f, easy %.1f",
		games, wins, draws, games-wins-draws, float64(np)/float64(games), float64(ep)/float64(games))
	t.Log(msg)
	if *report {
		fmt.Println(msg)
	}
	if wins*10 < games*9 {
		t.Fatalf("normal won only %d of %d games", wins, games)
	}
}

// TestReportTables prints, with -report, normal's results at fuller
// tables: one normal against 2 and 4 easy bots (its seat rotating), and
// two normals against each other (seat 0's share of the wins).
func TestReportTables(t *testing.T) {
	if !*report {
		t.Skip("pass -report to run")
	}
	for _, n := range []int{3, 5} {
		const games = 100
		wins, pts, others := 0, 0, 0
		for i := 0; i < games; i++ {
			levels := make([]string, n)
			for seat := range levels {
				levels[seat] = LevelEasy
			}
			ns := i % n
			levels[ns] = LevelNormal
			s := playGame(t, newState(t, n, uint64(2000+i)), levels, botRNG(uint64(i)), nil)
			if len(s.Final.Winners) == 1 && s.Final.Winners[0] == ns {
				wins++
			}
			for seat, sc := range s.Scores {
				if seat == ns {
					pts += sc
				} else {
					others += sc
				}
			}
		}
		fmt.Printf("1 normal vs %d easy, %d games: normal won %d alone; mean score normal %.1f, easy %.1f\n",
			n-1, games, wins, float64(pts)/games, float64(others)/float64(games*(n-1)))
	}
	const games = 200
	first, draws, total := 0, 0, 0
	for i := 0; i < games; i++ {
		s := playGame(t, newState(t, 2, uint64(3000+i)), []string{LevelNormal, LevelNormal}, botRNG(uint64(i)), nil)
		total += s.Scores[0] + s.Scores[1]
		switch {
		case len(s.Final.Winners) > 1:
			draws++
		case s.Final.Winners[0] == 0:
			first++
		}
	}
	fmt.Printf("normal vs normal, %d two-player games: seat 0 won %d, seat 1 %d, draws %d; mean score %.1f\n",
		games, first, games-first-draws, draws, float64(total)/(2*games))
}
