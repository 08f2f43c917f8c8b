package config

import "os"

const awsKey = "AKIAZ7Q2R5T6W3X4Y6B2" // want "Hardcoded AWS access key ID"

// The AWS documentation example is not a credential.
const docKey = "AKIAIOSFODNN7EXAMPLE"

var ghToken = "ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123" // want "Hardcoded GitHub token"

// A token after an underscore (a branch or file name) is still a token.
var branch = "wip_ghp_Zx8Cv7Bn6Mq5Wr4Et3Yu2Io1Pa0SdFgHjKlZ" // want "Hardcoded GitHub token"
var backup = "keys/old_AKIA5XRILAV5FVCYK43K_backup.txt"     // want "Hardcoded AWS access key ID"

var slack = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx" // want "Hardcoded Slack token"

// Near misses: variable names, env lookups, short prefixes and fillers.
var ghpPrefix = "ghp_"
var fromEnv = os.Getenv("GITHUB_TOKEN")
var filler = "ghp_000000000000000000000000000000000000"
var notAKey = "AKIA is the prefix of AWS keys"
