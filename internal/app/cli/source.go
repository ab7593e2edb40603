package cli

import (
	"errors"
	"io/fs"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/nl2sql/nl2sql/engine"
	"github.com/nl2sql/nl2sql/internal/app"
	"github.com/nl2sql/nl2sql/internal/config"
)

// configSource is where a command's configuration comes from: --config
// FILE (default $NL2SQL_CONFIG, else ./nl2sql.yaml), or --db FILE_OR_DSN (repeatable) with
// optional --storage DIR and no file at all (internal/app/databases.go).
// --db and --config together are refused: which of the file's settings
// (roles, hooks, storage) would apply to databases it does not list is not
// something to guess.
type configSource struct {
	path    string
	dbs     []string
	storage string
	// allowWritable is --allow-writable-role (DatabaseOptions).
	allowWritable bool
	cmd           *cobra.Command
}

// configFlags adds --config, --db, --storage and --allow-writable-role to cmd.
func configFlags(cmd *cobra.Command) *configSource {
	s := &configSource{cmd: cmd}
	cmd.Flags().StringVar(&s.path, "config", defaultConfigPath(), configUsage)
	cmd.Flags().StringArrayVar(&s.dbs, "db", nil, "a SQLite or DuckDB file or a postgres:// DSN to serve without a config file, as [id=]FILE_OR_DSN (repeatable)")
	cmd.Flags().StringVar(&s.storage, "storage", "", "with --db: the directory for snapshots, plan cache and traces (default: the user cache directory)")
	cmd.Flags().BoolVar(&s.allowWritable, "allow-writable-role", false, "with --db: open a postgres:// DSN whose role can write (e.g. a superuser on a development database) with a warning instead of refusing it; queries still run READ ONLY")
	return s
}

// ConfigEnv names the config file when --config is not given. An MCP
// client or the Inspector that launches the server can set it in the
// server's environment, where a --config argument could be taken by the
// launcher's own option of that name.
const ConfigEnv = "NL2SQL_CONFIG"

// configUsage is the --config flag's help.
const configUsage = "path of the config file ($" + ConfigEnv + ", when set, is the default)"

// defaultConfigPath is --config's default: $NL2SQL_CONFIG, else
// nl2sql.yaml in the working directory.
func defaultConfigPath() string {
	if p := os.Getenv(ConfigEnv); p != "" {
		return p
	}
	return "nl2sql.yaml"
}

// errDBAndConfig is the refusal of --db with --config.
var errDBAndConfig = errors.New("--db and --config cannot be used together: list the databases under datasources in the config file, or drop --config")

// load returns the configuration and how to name it.
func (s *configSource) load() (*config.Config, string, error) {
	if len(s.dbs) == 0 {
		if s.storage != "" {
			return nil, "", errors.New("--storage goes with --db; with a config file set storage.path (or NL2SQL_STORAGE__PATH)")
		}
		if s.allowWritable {
			return nil, "", errors.New("--allow-writable-role goes with --db; with a config file set allow_writable_role: true on the postgres datasource")
		}
		cfg, err := app.LoadConfig(s.path)
		return cfg, s.path, err
	}
	if s.cmd.Flags().Changed("config") {
		return nil, "", errDBAndConfig
	}
	cfg, err := app.ConfigFromDatabases(s.dbs, app.DatabaseOptions{Storage: s.storage, AllowWritableRole: s.allowWritable})
	return cfg, config.FlagsLabel, err
}

// requireStore refuses a command that only reads or clears stored state
// when the storage directory does not exist: opening it would create an
// empty store there (a mistyped --storage) and report success on nothing.
func (s *configSource) requireStore() error {
	cfg, _, err := s.load()
	if err != nil || cfg.Storage.Postgres != "" {
		return err
	}
	if _, err := os.Stat(cfg.Storage.Path); errors.Is(err, fs.ErrNotExist) {
		return &engine.Error{Code: engine.CodeInvalidRequest, Msg: "there is no state store at " + cfg.Storage.PathAsWritten + ": nothing was ever stored there",
			Hint: "check --storage (with --db) or storage.path: name the directory ask and serve store their state in"}
	}
	return nil
}

// open loads the configuration and builds the app.
func (s *configSource) open(logger *slog.Logger, o app.Options) (*app.App, error) {
	cfg, _, err := s.load()
	if err != nil {
		return nil, err
	}
	return app.OpenConfig(cfg, logger, o)
}
