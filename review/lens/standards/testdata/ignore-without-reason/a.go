package a

var a = legacy() /* want "gives no reason" */ // reviewls:ignore security/weak-crypto
var b = legacy() /* want "names no rule" */ // reviewls:ignore
var c = legacy() // reviewls:ignore security/weak-crypto v1 cache checksum, not a secret
var d = "reviewls:ignore security/weak-crypto"

// reviewls:ignore readiness/todo-added tracked in #42
func legacy() int { return 0 }
