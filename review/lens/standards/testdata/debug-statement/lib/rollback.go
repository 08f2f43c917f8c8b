package lib

// A debug line in a file that spells the call only with a capital P (the
// rule's pre-filter once looked for the lower-case spelling alone).
import "fmt"

func Rollback() {
	fmt.Println("ROLLBACK") // want "fmt.Println"
}
