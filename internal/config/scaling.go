package config

// Scaling is the test-time scaling section, global (scaling:) or per
// datasource (datasources[i].scaling:, which replaces the global one for
// that datasource). Omitted, questions take the single planner call.
//
//	scaling:
//	  strategies:                      # candidates per prompt strategy
//	    - {name: plain, samples: 2, temperature: 0.7}
//	    - {name: reasoning, samples: 2}
//	    - {name: decompose, samples: 1}
//	  max_refinements: 1               # critique and revision passes (0-3)
//	  tournament: true                 # pairwise selector; off: largest bucket
//	  token_budget: 60000              # tokens per question, reserved per call
//	  time_budget_seconds: 90
//	  max_output_tokens: 2048          # each call's output cap
//	  concurrency: 4                   # calls and queries in flight
//	  router: features                 # off | features | model
//
// The values are checked by engine.ScaleConfig.Check when the app is built
// (internal/app), so the rules live in one place.
type Scaling struct {
	Strategies        []ScalingStrategy `koanf:"strategies"`
	MaxRefinements    int               `koanf:"max_refinements"`
	Tournament        bool              `koanf:"tournament"`
	TokenBudget       int               `koanf:"token_budget"`
	TimeBudgetSeconds int               `koanf:"time_budget_seconds"`
	MaxOutputTokens   int               `koanf:"max_output_tokens"`
	Concurrency       int               `koanf:"concurrency"`
	Router            string            `koanf:"router"`
}

// ScalingStrategy is one strategy's sample count and temperature (nil: the
// model entry's temperature).
type ScalingStrategy struct {
	Name        string   `koanf:"name"`
	Samples     int      `koanf:"samples"`
	Temperature *float64 `koanf:"temperature"`
}
