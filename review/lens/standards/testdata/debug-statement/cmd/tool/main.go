package main

import "fmt"

// Near miss: package main prints by design.
func main() {
	fmt.Println("hello")
}
