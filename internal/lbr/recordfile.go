package lbr

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"

	"github.com/felt-poker/felt/internal/arena"
)

// AppendRecord appends rec to the record file at path, created with the
// header when missing or empty (arena.AppendRecordLine). A file written by an
// earlier felt (olderHeaders) is first rewritten with the current header, its
// lines keeping their values and leaving the new columns empty, through a new
// file renamed over it; a file that is not a record file is left alone, with
// an error. Runs in several processes may append to one file: AppendRecord
// holds the file's lock (arena.LockRecordFile) from its reading of the file to
// its write.
func AppendRecord(path string, rec Record) (err error) {
	unlock, err := arena.LockRecordFile(path)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, unlock()) }()
	if underLock != nil {
		underLock(path)
	}
	err = arena.AppendRecordLine(path, recordHeader, rec.row())
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

// underLock, when set (by tests), is called by AppendRecord once it holds the
// lock of the file at path.
var underLock func(path string)

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
