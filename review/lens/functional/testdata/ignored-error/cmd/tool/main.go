package main

import "os"

func main() {
	os.WriteFile("out.txt", []byte("done\n"), 0o644) // want "os.WriteFile is dropped"
	println("done")
}
