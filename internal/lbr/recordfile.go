package lbr

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// AppendRecord appends rec to the record file at path, created with the
// header when missing or empty. A file written before the deals column
// (legacyHeader) is first rewritten with the current header, its lines keeping
// their values and leaving the new columns empty, through a new file renamed
// over it; a file that is not a record file is left alone, with an error.
// Appending is one write of one line, so runs in several processes may append
// to one file.
func AppendRecord(path string, rec Record) error {
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
