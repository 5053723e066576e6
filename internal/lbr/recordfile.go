package lbr

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"

	"github.com/felt-poker/felt/internal/arena"
)

// AppendRecord appends rec to the record file at path, created with the
// header when missing or empty (arena.AppendRecordLine: one write of one line,
// so runs in several processes may append to one file). A file written before
// the deals column (legacyHeader) is first rewritten with the current header,
// its lines keeping their values and leaving the new columns empty, through a
// new file renamed over it; a file that is not a record file is left alone,
// with an error.
func AppendRecord(path string, rec Record) error {
	err := arena.AppendRecordLine(path, recordHeader, rec.row())
	if !errors.Is(err, arena.ErrOtherRecordFile) {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	recs, err := ReadRecords(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return rewriteRecords(path, append(recs, rec))
}

// rewriteRecords replaces the file at path by one of recs, keeping its mode.
func rewriteRecords(path string, recs []Record) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after the rename, nothing is there
	err = WriteRecords(f, recs, true)
	err = errors.Join(err, f.Chmod(st.Mode().Perm()), f.Sync(), f.Close())
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
