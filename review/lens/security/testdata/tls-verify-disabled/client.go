package client

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
)

func Insecure() *http.Client {
	return &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{
			MinVersion:         tls.VersionTLS12,
			InsecureSkipVerify: true, // want "Certificate verification is disabled"
		},
	}}
}

func Inline() *tls.Config {
	return &tls.Config{InsecureSkipVerify: true} // want "anyone on the network path"
}

func Middle() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: true, ServerName: "db"} // want "TLS certificate verification disabled"
}

func Assigned(cfg *tls.Config) {
	cfg.InsecureSkipVerify = true // want "Certificate verification is disabled"
}

// Near misses.

func Pinned(pool *x509.CertPool, verify func(tls.ConnectionState) error) *tls.Config {
	return &tls.Config{
		InsecureSkipVerify: true,
		VerifyConnection:   verify,
	}
}

func Flag(insecure bool) *tls.Config {
	return &tls.Config{InsecureSkipVerify: insecure}
}

func Secure(pool *x509.CertPool) *tls.Config {
	return &tls.Config{RootCAs: pool, InsecureSkipVerify: false}
}
