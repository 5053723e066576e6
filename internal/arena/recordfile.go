package arena

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/felt-poker/felt/internal/filelock"
)

// A record file is a CSV file of runs, one a line after a header naming the
// columns (felt match --record, felt lbr --record): runs made in pieces, in
// several processes or sessions, append their lines to it (each holding the
// file's lock, LockRecordFile), and its lines of one measurement pool into one
// figure (PoolPieces).

// ErrOtherRecordFile is returned for a file whose first line is not the header
// expected: a record file of something else (felt lbr's given to felt match),
// or not a record file.
var ErrOtherRecordFile = errors.New("not a record file of this kind")

// RecordLockPath is the lock file of the record file at path: a hidden file
// beside it, empty, which LockRecordFile locks (it is left there; delete it
// when nothing is recording).
func RecordLockPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

// LockRecordFile takes the lock file of the record file at path
// (RecordLockPath), waiting while another open of it, in this process or
// another, holds it; unlock releases it. Runs that record into one file take
// it from their reading of the file to their write, so that an append never
// lands in a file being rewritten (it would be lost with the file the rename
// replaces) and two rewrites never race.
func LockRecordFile(path string) (unlock func() error, err error) {
	lock, err := os.OpenFile(RecordLockPath(path), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := filelock.Lock(lock); err != nil {
		return nil, errors.Join(err, lock.Close())
	}
	return lock.Close, nil // closing releases the lock
}

// AppendRecordLine appends row to the record file at path, after header when
// the file is missing or empty; the caller holds the file's lock
// (LockRecordFile). A file whose first line is another header is left alone,
// with an error wrapping ErrOtherRecordFile.
func AppendRecordLine(path string, header, row []string) error {
	first, err := firstLine(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		first = ""
	case err != nil:
		return err
	}
	if first != "" && first != csvLine(header) {
		return fmt.Errorf("%w: its first line is %q, not the header %q", ErrOtherRecordFile, first, csvLine(header))
	}
	var b strings.Builder
	cw := csv.NewWriter(&b)
	if first == "" {
		_ = cw.Write(header) // a strings.Builder does not fail
	}
	_ = cw.Write(row)
	cw.Flush()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(b.String())
	return errors.Join(err, f.Close())
}

// firstLine returns the first line of the file at path, without its line end
// ("" for an empty file).
func firstLine(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && err != io.EOF {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// csvLine returns fields as one CSV line, without its line end.
func csvLine(fields []string) string {
	var b strings.Builder
	cw := csv.NewWriter(&b)
	_ = cw.Write(fields) // a strings.Builder does not fail
	cw.Flush()
	return strings.TrimRight(b.String(), "\n")
}

// ReadRecordLines reads a record file whose header is one of headers (the
// first the current one) and returns its lines, each read by parse (given a
// row of the header's columns). A file with another first line is refused
// (ErrOtherRecordFile), and so is any line parse refuses or of another number
// of columns, named by its line number (the header is line 1): nothing of a
// bad file is read.
func ReadRecordLines[T any](r io.Reader, what string, parse func(row []string) (T, error), headers ...[]string) ([]T, error) {
	cr := csv.NewReader(r)
	rows, err := cr.ReadAll() // every line has the header's fields
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if len(rows) == 0 || !slices.ContainsFunc(headers, func(h []string) bool { return slices.Equal(rows[0], h) }) {
		return nil, fmt.Errorf("%s: %w: the first line is not the header %s", what, ErrOtherRecordFile, strings.Join(headers[0], ","))
	}
	out := make([]T, 0, len(rows)-1)
	for n, row := range rows[1:] {
		x, err := parse(row)
		if err != nil {
			return nil, fmt.Errorf("%s, line %d: %w", what, n+2, err)
		}
		out = append(out, x)
	}
	return out, nil
}
