package token

import (
	"math/rand"
	"time"
)

const letters = "abcdefghijklmnopqrstuvwxyz0123456789"

func NewSessionToken() string {
	b := make([]byte, 32)
	for i := range b {
		b[i] = letters[rand.Intn(len(letters))] // want "math/rand makes a session id"
	}
	return string(b)
}

func ResetCode() int {
	resetCode := 100000 + rand.Intn(900000) // want "math/rand makes a reset code"
	return resetCode
}

var apiKey = rand.Int63() // want "predictable"

// Near misses.

func Backoff(attempt int) time.Duration {
	return time.Duration(attempt)*time.Second + time.Duration(rand.Int63n(int64(time.Second)))
}

func PickToken(tokens []string) []string {
	rand.Shuffle(len(tokens), func(i, j int) { tokens[i], tokens[j] = tokens[j], tokens[i] })
	return tokens
}

func Pick(n int) int {
	return rand.Intn(n)
}
