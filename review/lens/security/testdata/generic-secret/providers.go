package config

import "os"

const stripeKey = "sk_live_OhbVrpoiVgRV5IfLBcbfnoGM" // want "Hardcoded Stripe live secret key"

var restricted = "rk_live_bJmTPSIAoCLrZ3aWZkSBvrjn9Wvgfy" // want "Hardcoded Stripe live secret key"

var gitlab = "glpat-gw2wMqZcUDIh7yfJs1ON" // want "Hardcoded GitLab personal access token"

var npmToken = "npm_43xKmTecQoXsf2o3gyrDO1xkxwnQrS7RPeMO" // want "Hardcoded npm access token"

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

// Already reported by security/hardcoded-secret: not again here.
var ghToken = "ghp_R4nd0mL00k1ngT0k3nV4lu3Abcdefghij123"
