package evalret

import (
	"strings"
	"testing"
)

// The split must not move: a database that changes half would let tuning
// see the held-out schemas. These are the halves of ../shared's databases.
func TestHalfOfIsFixed(t *testing.T) {
	for db, want := range map[string]string{
		"battle_death": SplitTuning, "concert_singer": SplitTuning, "course_teach": SplitTuning,
		"cre_Doc_Template_Mgt": SplitTuning, "flight_2": SplitTuning, "orchestra": SplitTuning,
		"real_estate_properties": SplitTuning, "tvshow": SplitTuning, "financial": SplitTuning,
		"museum_visit": SplitHeldOut, "pets_1": SplitHeldOut, "world_1": SplitHeldOut,
		"california_schools": SplitHeldOut, "card_games": SplitHeldOut, "formula_1": SplitHeldOut,
		"student_club": SplitHeldOut, "thrombosis_prediction": SplitHeldOut,
	} {
		if got := HalfOf(db); got != want {
			t.Errorf("HalfOf(%q) = %q, want %q", db, got, want)
		}
	}
}

func TestSplitIsChecked(t *testing.T) {
	// A misspelt half must not silently measure every database.
	_, err := loadQuestions(Config{Dataset: "spider", Questions: "x", Split: "held-out"})
	if err == nil || !strings.Contains(err.Error(), "held-out") {
		t.Fatalf("an unknown split gave %v", err)
	}
}
