package perms

import (
	"io/fs"
	"io/ioutil"
	"os"
)

func Setup(dir string, data []byte) error {
	if err := os.Chmod(dir, 0o777); err != nil { // want "os.Chmod with mode 0o777"
		return err
	}
	if err := os.WriteFile(dir+"/a", data, 0o646); err != nil { // want "os.WriteFile creates the file"
		return err
	}
	if err := os.MkdirAll(dir+"/b", fs.FileMode(0776)); err != nil { // want "os.MkdirAll"
		return err
	}
	return ioutil.WriteFile(dir+"/c", data, 0o646) // want "ioutil.WriteFile"
}

// Near misses: none of these is reported.
func Fine(dir string, data []byte) error {
	_ = os.Chmod(dir, 0o755)
	_ = os.WriteFile(dir+"/a", data, 0o644)
	_ = os.MkdirAll(dir, 0o750)
	_ = os.Chmod(dir, os.ModeSticky|0o777)
	_ = os.MkdirAll(dir, 0o777) // the umask decides
	_ = os.WriteFile(dir+"/c", data, 0666)
	return os.WriteFile(dir+"/b", data, 0600)
}
