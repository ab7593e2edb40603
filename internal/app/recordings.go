package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/engine/llm"
)

// CheckRecordings lists, for every replay recordings directory the config
// at cfgPath names, the recordings whose prompt_sha256 no longer matches the
// prompt the current code sends for their question (nl2sql recordings
// check). It prints one line per recording to out, "FILE: ok",
// "FILE: STALE: …", "FILE: FAILED: …" or "FILE: skipped (…)", then a
// summary, and returns an error when any is stale or failed.
//
// Only first planning calls (step "plan", sample 0) are checked: the engine
// rebuilds that request with engine.Engine.PlanRequest. A repair's prompt
// holds the previous answer's errors, so repair recordings are skipped.
// The run date is masked in the hash, so the check does not depend on it.
func CheckRecordings(ctx context.Context, cfgPath string, out io.Writer) error {
	cfg, err := LoadConfig(cfgPath)
	if err != nil {
		return err
	}
	var replays []*llm.Replay
	seen := map[string]bool{}
	for _, step := range llmSteps(cfg) {
		c := cfg.LLM[step]
		if c.Provider != "replay" || seen[c.Recordings] {
			continue
		}
		seen[c.Recordings] = true
		rp, err := llm.OpenReplay(c.Recordings)
		if err != nil {
			return fmt.Errorf("llm.%s: %w", step, err)
		}
		replays = append(replays, rp)
	}
	if len(replays) == 0 {
		fmt.Fprintln(out, "no replay recordings are configured (no llm entry has provider: replay)")
		return nil
	}
	eng, err := engine.New(engine.Options{Datasources: datasourceSpecs(cfg), Open: OpenSource, Planner: replays[0],
		Logger: slog.New(slog.DiscardHandler), Today: func() string { return time.Now().UTC().Format("2006-01-02") }})
	if err != nil {
		return err
	}
	defer eng.Close()
	var total, ok, stale, failed, skipped int
	for _, rp := range replays {
		for _, rec := range rp.Recordings() {
			total++
			if rec.Step != "plan" || rec.Sample != 0 {
				skipped++
				fmt.Fprintf(out, "%s: skipped (step %s sample %d: only first planning calls can be rebuilt)\n", rec.File, rec.Step, rec.Sample)
				continue
			}
			req, err := eng.PlanRequest(ctx, rec.Datasource, rec.Question)
			switch {
			case err != nil:
				failed++
				fmt.Fprintf(out, "%s: FAILED: %s\n", rec.File, oneLine(err))
			case rec.PromptSHA256 != req.PromptHash:
				stale++
				fmt.Fprintf(out, "%s: STALE: the prompt changed since it was recorded (recorded sha256 %s, now %s)\n",
					rec.File, short(rec.PromptSHA256), short(req.PromptHash))
			default:
				ok++
				fmt.Fprintf(out, "%s: ok\n", rec.File)
			}
		}
	}
	fmt.Fprintf(out, "%d recordings: %d ok, %d stale, %d failed, %d skipped\n", total, ok, stale, failed, skipped)
	if stale+failed > 0 {
		return fmt.Errorf("%d recording(s) no longer match the prompt the engine sends and %d could not be checked; re-record them (nl2sql ask --record DIR) and review the answers", stale, failed)
	}
	return nil
}

// short is the first 12 hex digits of a hash ("none" for an empty one).
func short(h string) string {
	if h == "" {
		return "none"
	}
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
