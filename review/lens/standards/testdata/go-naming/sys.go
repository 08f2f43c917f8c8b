package user

import "syscall"

const O_CLOEXEC_DEFAULT = syscall.O_CLOEXEC

type fd_set struct{ bits [16]int64 }

func GetUrl() string { return "" } // want "function GetUrl uses a mixed-case initialism"
