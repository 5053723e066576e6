package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/felt-poker/felt/internal/store"
)

// ModelStore keeps what learning bots learn, as the bot's own JSON, by bot name and
// opponent ("" for what a bot learns about no one in particular). FileModels keeps
// them in a file, StoreModels in the house's store.
type ModelStore interface {
	// LoadModel returns the model bot keeps of opponent, or an error wrapping
	// ErrNoModel when there is none yet.
	LoadModel(ctx context.Context, bot, opponent string) ([]byte, error)
	// SaveModel inserts or replaces the model bot keeps of opponent.
	SaveModel(ctx context.Context, bot, opponent string, model []byte) error
}

// ErrNoModel is wrapped by ModelStore.LoadModel when a bot has no model yet.
var ErrNoModel = errors.New("no model")

// FileModels is a ModelStore in one JSON file (an object keyed "bot" or
// "bot/opponent"), named by the string. A missing file holds no models. Each save
// reads the file, replaces one entry and writes the file anew through a temporary
// file and a rename, so a reader never sees half a file; two processes saving at
// the same moment may lose one of the two saves.
type FileModels string

// key names a model inside the file.
func modelKey(bot, opponent string) string {
	if opponent == "" {
		return bot
	}
	return bot + "/" + opponent
}

// read returns the file's models (none when it does not exist).
func (f FileModels) read() (map[string]json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	data, err := readFile(string(f))
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", f, err)
	}
	return m, nil
}

// LoadModel reads the model of (bot, opponent) from the file.
func (f FileModels) LoadModel(_ context.Context, bot, opponent string) ([]byte, error) {
	m, err := f.read()
	if err != nil {
		return nil, err
	}
	raw, ok := m[modelKey(bot, opponent)]
	if !ok {
		return nil, fmt.Errorf("%s: %s: %w", f, modelKey(bot, opponent), ErrNoModel)
	}
	return raw, nil
}

// SaveModel replaces the model of (bot, opponent) in the file, creating it if need be.
func (f FileModels) SaveModel(_ context.Context, bot, opponent string, model []byte) error {
	if !json.Valid(model) {
		return fmt.Errorf("%s: model of %s is not JSON", f, modelKey(bot, opponent))
	}
	m, err := f.read()
	if err != nil {
		return err
	}
	m[modelKey(bot, opponent)] = model
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(string(f), append(data, '\n'))
}

// MaxFileSize bounds a file a bot reads whole (a network's weights, a model
// file), so that a wrong path cannot exhaust memory.
const MaxFileSize = 64 << 20

// openRegular opens the regular file at path. It refuses devices, pipes and
// directories before opening them, so that a path such as /dev/zero or a FIFO
// can neither exhaust memory nor block the caller.
func openRegular(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	return os.Open(path)
}

// readFile reads the regular file at path (see openRegular), of at most
// MaxFileSize bytes.
func readFile(path string) ([]byte, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err == nil && len(data) > MaxFileSize {
		err = fmt.Errorf("%s: more than the %d bytes a bot reads", path, MaxFileSize)
	}
	return data, err
}

// writeFileAtomic writes data to a temporary file beside path and renames it over path.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// StoreModels is a ModelStore in the house's store (store.BotModelStore), where bots
// seated in the house keep their models.
type StoreModels struct {
	Store store.BotModelStore
}

// LoadModel reads the model of (bot, opponent) from the store.
func (s StoreModels) LoadModel(ctx context.Context, bot, opponent string) ([]byte, error) {
	m, err := s.Store.BotModel(ctx, bot, opponent)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%s: %w", modelKey(bot, opponent), ErrNoModel)
	}
	if err != nil {
		return nil, err
	}
	return m.Model, nil
}

// SaveModel writes the model of (bot, opponent) to the store.
func (s StoreModels) SaveModel(ctx context.Context, bot, opponent string, model []byte) error {
	return s.Store.PutBotModel(ctx, store.BotModel{Bot: bot, Opponent: opponent, Model: model})
}

// loadJSON fills v from the model of (bot, opponent) in ms; it leaves v alone and
// returns nil when ms is nil or holds no such model.
func loadJSON(ms ModelStore, bot, opponent string, v any) error {
	if ms == nil {
		return nil
	}
	data, err := ms.LoadModel(context.Background(), bot, opponent)
	if errors.Is(err, ErrNoModel) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("model %s: %w", modelKey(bot, opponent), err)
	}
	return nil
}

// saveJSON saves v as the model of (bot, opponent) in ms, when ms is not nil.
func saveJSON(ms ModelStore, bot, opponent string, v any) error {
	if ms == nil {
		return nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return ms.SaveModel(context.Background(), bot, opponent, data)
}
