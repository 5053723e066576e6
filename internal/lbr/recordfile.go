package lbr

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/felt-poker/felt/internal/filelock"
)

// AppendRecord appends rec to the record file at path, created with the
// header when missing or empty. A file written by an earlier felt
// (olderHeaders) is first rewritten with the current header, its lines keeping
// their values and leaving the new columns empty, through a new file renamed
// over it; a file that is not a record file is left alone, with an error.
//
// Runs in several processes may append to one file: AppendRecord holds the
// file's lock file (LockPath) from its reading of the file to its write, so
// that an append never lands in a file being rewritten (it would be lost with
// the file the rename replaces) and two rewrites never race.
func AppendRecord(path string, rec Record) (err error) {
	lock, err := os.OpenFile(LockPath(path), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, lock.Close()) }() // closing releases the lock
	if err := filelock.Lock(lock); err != nil {
		return err
	}
	if underLock != nil {
		underLock(path)
	}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && len(data) == 0:
		return appendRecord(path, rec, true)
	case err != nil:
		return err
	}
	first, _, _ := strings.Cut(string(data), "\n")
	if strings.TrimSuffix(first, "\r") == strings.Join(recordHeader, ",") {
		return appendRecord(path, rec, false)
	}
	recs, err := ReadRecords(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return rewriteRecords(path, append(recs, rec))
}

// LockPath is the lock file of the record file at path: a hidden file beside
// it, empty, which AppendRecord locks (it is left there; delete it when no
// felt lbr is recording).
func LockPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

// underLock, when set (by tests), is called by AppendRecord once it holds the
// lock of the file at path.
var underLock func(path string)

// appendRecord appends rec's line to path, after the header when header.
func appendRecord(path string, rec Record, header bool) error {
	var buf bytes.Buffer
	if err := WriteRecords(&buf, []Record{rec}, header); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(buf.Bytes())
	return errors.Join(err, f.Close())
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
