package config

import "os"

const stripeKey = "sk_live_OhbVrpoiVgRV5IfLBcbfnoGM" // want "Hardcoded Stripe live secret key"

var restricted = "rk_live_bJmTPSIAoCLrZ3aWZkSBvrjn9Wvgfy" // want "Hardcoded Stripe live secret key"

var gitlab = "glpat-gw2wMqZcUDIh7yfJs1ON" // want "Hardcoded GitLab personal access token"

var npmToken = "npm_43xKmTecQoXsf2o3gyrDO1xkxwnQrS7RPeMO" // want "Hardcoded npm access token\nAn npm access token"

var openai = "sk-proj-kIUpkDyr7OSJoRu1XXdoT3BlbkFJ0cZuzren68K4TunPFz46" // want "Hardcoded OpenAI API key"

var anthropic = "sk-ant-api03-6sHrFH2ZUCr-lgotu2iXW7GboIRoL3u6aHwnMztVuaP_coUNEhEkk_iqq8vH2BzNZV45pFCiRcDCajhDieQjEJ_Bq8F80AA" // want "Hardcoded Anthropic API key"

var sendgrid = "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" // want "Hardcoded SendGrid API key"

var twilio = "SKc8e9df469611a11f5125227c3712da86" // want "Hardcoded Twilio API key"

var maps = "AIza8Cz6SNDCdyZQJiJSZQdoHwHen3SO3oXyGf3" // want "Hardcoded Google API key"

const storage = "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=OEHYqM6Ojb6mjBHqSiFVKu4MbMnrHontIKARAH+Ggl2JfaQqHu42bojteVs3qfNUfTAFnT0tEuw0dwQ0FIunWe==;EndpointSuffix=core.windows.net" // want "Hardcoded Azure storage account key"

var sessionToken = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.azU3iQOpMN0PZLqy1WwMZaMKA3P744B8vkKQlENCzsd" // want "Hardcoded JSON web token"

const dsn = "postgres://app:Zt4rW81Aq1fEbVId@prod-db.internal.acme.com:5432/app" // want "Database URL with an inline password"

var keyJSON = `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END PRIVATE KEY-----\n"}` // want "Hardcoded private key"

// Near misses.
var stripeTest = "sk_test_OhbVrpoiVgRV5IfLBcbfnoGM"
var stripeDoc = "sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"
var fromEnv = os.Getenv("STRIPE_SECRET_KEY")
var azurite = "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;"
var localDB = "postgres://postgres:Zt4rW81Aq1fEbVId@localhost:5432/app"
var composeDB = "postgres://app:Zt4rW81Aq1fEbVId@db:5432/app"
var defaultPw = "mysql://root:root@mysql.example.org/app"
var envDB = "postgres://app:${DB_PASSWORD}@prod-db.acme.com/app"
var claims = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.azU3iQOpMN0PZLqy1WwMZaMKA3P744B8vkKQlENCzsd"
var task = "TASK" + "SKc8e9df469611a11f5125227c3712da86x"

// Formats added after the comparison with gitleaks's rule set
// (eval/secrets): random values in each provider's documented format.
var pypi = "pypi-AgEIcHlwaS5vcmcpTyGJMuHbEL31IeL2HPcHyGcFRl1SPnXNYvMIHa-2o76umfXfKm-r5kJP1Vr"                  // want "Hardcoded PyPI API token"
var shopify = "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"                                                         // want "Hardcoded Shopify access token"
var digitalocean = "dop_v1_ccf25ec84d8dbc74254770f58904dba41ecccc3fc1626e53a13043b026c48bbf"                   // want "Hardcoded DigitalOcean token"
var databricks = "dapi33feff9243a8f506b40928b5b7a767c7"                                                        // want "Hardcoded Databricks access token"
var vault = "hvs.Z-tDDj8hYs5suKcNd8Zra9A9sKPxZ9W3qLy7zKUVQDT7S8sTQCBNR3YbDgbleph1QHt61QTC4XATWS8PHp9NHfYjFM5D" // want "Hardcoded HashiCorp Vault token"
var mailgun = "key-2ea68ef786e4d3cea27d26934b484e73"                                                           // want "Hardcoded Mailgun API key"

// Near misses: the same prefixes in ordinary words and identifiers.
var notVault = "hvs.example"
var mapKey = "key-value"
var api = "dapi-client"

// Already reported by security/hardcoded-secret: not again here.
var ghToken = "ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123"
