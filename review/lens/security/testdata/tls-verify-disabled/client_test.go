package client

import "crypto/tls"

var testConfig = &tls.Config{InsecureSkipVerify: true}
