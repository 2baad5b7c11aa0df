// SPDX-License-Identifier: Apache-2.0

package reference

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dagu-mcp-gateway/gateway/internal/cache"
	"github.com/dagu-mcp-gateway/gateway/internal/model"
)

// MimeType is the media type of every topic.
const MimeType = "text/markdown"

// DefaultTopic is the topic a reference read without a name returns.
const DefaultTopic = "authoring"

// DefaultTTL is how long directory reads are cached when Options.TTL is 0.
const DefaultTTL = 30 * time.Second

// ErrNotFound is returned (wrapped) for a topic name that is malformed or
// names no topic.
var ErrNotFound = errors.New("reference topic not found")

// Options configures a Library.
type Options struct {
	// Dir, when set, is a directory of <topic>.md files: a built-in topic's
	// file replaces it and every other valid name becomes an extra topic.
	Dir string
	// TTL is how long directory reads are cached; 0 means DefaultTTL.
	TTL time.Duration
	// Registerer, when set, receives the metrics of the directory caches.
	Registerer prometheus.Registerer
	// Now replaces the clock of the caches, for tests.
	Now func() time.Time
}

// Library serves the reference topics. It is safe for concurrent use.
type Library struct {
	dir      string
	embedded map[string]string
	files    *cache.Cache[string, dirFile]
	listing  *cache.Cache[struct{}, []string]
}

// New builds a Library. It fails when Dir is set but is not a readable
// directory.
func New(opts Options) (*Library, error) {
	if opts.TTL < 0 {
		return nil, fmt.Errorf("reference: TTL must not be negative, got %s", opts.TTL)
	}
	if opts.TTL == 0 {
		opts.TTL = DefaultTTL
	}
	embedded, err := loadEmbedded()
	if err != nil {
		return nil, err
	}
	l := &Library{embedded: embedded}
	if opts.Dir == "" {
		return l, nil
	}
	if l.dir, err = checkDir(opts.Dir); err != nil {
		return nil, err
	}
	if err := l.newCaches(opts); err != nil {
		return nil, err
	}
	return l, nil
}

// checkDir returns dir, cleaned, when it is a directory the process can
// open.
func checkDir(dir string) (string, error) {
	dir = filepath.Clean(dir)
	info, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("reference directory: %w", err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("reference directory %s is not a directory", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", fmt.Errorf("reference directory: %w", err)
	}
	return dir, root.Close()
}

// DirCacheBytes bounds the directory's files kept in memory (only with a
// directory).
const DirCacheBytes = 16 << 20

// newCaches builds the caches of directory reads.
func (l *Library) newCaches(opts Options) error {
	var err error
	l.files, err = cache.New[string](cache.Options[dirFile]{
		Name:       "reference_topics",
		MaxEntries: maxDirTopics + len(builtinTopics),
		MaxBytes:   DirCacheBytes,
		TTL:        opts.TTL,
		SizeOf:     func(f dirFile) int64 { return int64(len(f.text)) },
		Registerer: opts.Registerer,
		Now:        opts.Now,
	})
	if err != nil {
		return err
	}
	l.listing, err = cache.New[struct{}](cache.Options[[]string]{
		Name:       "reference_listing",
		MaxEntries: 1,
		TTL:        opts.TTL,
		Registerer: opts.Registerer,
		Now:        opts.Now,
	})
	return err
}

// Topics lists the built-in topics in registry order, then the extra topics
// of the directory in name order. A directory that cannot be read
// contributes no extra topics.
func (l *Library) Topics() []model.ReferenceItem {
	ctx := context.Background()
	items := make([]model.ReferenceItem, 0, len(builtinTopics))
	for _, name := range builtinTopics {
		text, err := l.Topic(ctx, name)
		if err != nil {
			text = l.embedded[name] // the listing still shows the topic
		}
		items = append(items, item(name, text))
	}
	for _, name := range l.extraNames(ctx) {
		if text, err := l.Topic(ctx, name); err == nil {
			items = append(items, item(name, text))
		}
	}
	return items
}

func item(name, text string) model.ReferenceItem {
	return model.ReferenceItem{
		Name:     name,
		URI:      model.ReferenceURI(name),
		MimeType: MimeType,
		Title:    titleOf(text),
	}
}

// extraNames returns the directory's topic names that are not built in.
func (l *Library) extraNames(ctx context.Context) []string {
	if l.dir == "" {
		return nil
	}
	names, err := l.listing.GetOrLoad(ctx, struct{}{}, func(context.Context) ([]string, error) {
		return listTopicFiles(l.dir)
	})
	if err != nil {
		return nil
	}
	extras := make([]string, 0, len(names))
	for _, name := range names {
		if _, builtin := l.embedded[name]; !builtin {
			extras = append(extras, name)
		}
	}
	return extras
}

// Topic returns the Markdown text of one topic: the directory's file when
// there is one, else the built-in text. A malformed or unknown name gives
// a *model.Failure wrapping ErrNotFound; a directory file that exists but cannot be
// read gives another error.
func (l *Library) Topic(ctx context.Context, name string) (string, error) {
	if !ValidName(name) {
		return "", topicNotFound(fmt.Errorf("%w: malformed name", ErrNotFound))
	}
	if l.dir != "" {
		f, err := l.files.GetOrLoad(ctx, name, func(context.Context) (dirFile, error) {
			return readTopicFile(l.dir, name)
		})
		if err != nil {
			return "", fmt.Errorf("reference topic %q: %w", name, err)
		}
		if f.found {
			return f.text, nil
		}
	}
	if text, ok := l.embedded[name]; ok {
		return text, nil
	}
	return "", topicNotFound(fmt.Errorf("%w: %q", ErrNotFound, name))
}

// topicNotFound reports an unknown topic in the read tool's failure
// vocabulary, blaming the name field; errors.Is(err, ErrNotFound) holds.
func topicNotFound(cause error) error {
	return &model.Failure{Kind: model.FailureNotFound, Field: model.FieldName, Cause: cause}
}
