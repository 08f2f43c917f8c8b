package store

import "fmt"

var debug = false

func Get(key string) (string, error) {
	fmt.Println("get", key) // want "Debug statement left in(.|\n)*writes to the standard output of"
	println("here")         // want "println in package store writes to the standard error of"
	if key == "" {
		fmt.Printf("empty key\n") // want "fmt.Printf"
		return "", fmt.Errorf("empty key")
	}
	// Near misses: none of these is reported.
	if debug {
		fmt.Println("debug: get", key)
	}
	msg := fmt.Sprint(key)
	s := fmt.Sprintf("%s", key)
	return msg + s, nil
}
