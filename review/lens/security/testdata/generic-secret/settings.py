import os

API_TOKEN = "f3Jk9QzL2mXw8RtV5nBc7HyD4pGs"  # want "Possible hardcoded secret in API_TOKEN"
client_secret = 'prvu5IfijoySjTneAAvIDAdn'  # want "client_secret is assigned prvu…\[redacted, 24 chars\]"
SECRET_KEY = "17f2ed6cfc7403d75e173e4eaede5fe878f78e29"  # want "40-character hex string"
DB_PASSWORD = "Vq7#pL2m!xR9"  # want "looks like a real password"
headers = {"Authorization": "Bearer 1XcW9aTMX1C+CI3+dXRZv7qdYdk2r7xgHWPB6PRW"}  # want "Possible hardcoded secret in Authorization"
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "wJ8rXUtnFEMI2K7MDENGbPxRfiCYzz7Lq9h3Vb0D")  # want "Possible hardcoded secret in AWS_SECRET_ACCESS_KEY"
HEROKU_API_KEY = "8f14e45f-ceea-467f-a0e6-2c4f5b1d9e3a"  # want "is a UUID"

# Near misses.
API_TOKEN_ENV = os.environ["API_TOKEN"]
api_token = os.getenv("API_TOKEN", "")
password = "hunter2"
password = "changeme"
SECRET_KEY = "django-insecure-replace-me"
token_url = "https://auth.example.org/oauth/token"
password_hint = "At least 12 characters, one digit"
secret_name = "prod/db/credentials"
TOKEN_KEY = "myapp_auth_token_v2"
access_token = "accessTokenStorageKey"
cache_key = "d41d8cd98f00b204e9800998ecf8427e"
etag = "17f2ed6cfc7403d75e173e4eaede5fe878f78e29"
client_id = "8f14e45f-ceea-467f-a0e6-2c4f5b1d9e3a"
tenant_token = "8f14e45f-ceea-467f-a0e6-2c4f5b1d9e3a"
auth = "basic"
fake_token = "FAKE_f3Jk9QzL2mXw8RtV5nBc7HyD4pGs"
token = "dummy-f3Jk9QzL2mXw8RtV5nBc7HyD4pGs"
api_key = "test_f3Jk9QzL2mXw8RtV5nBc7HyD4pGs"
api_key = "<your-api-key>"
github_token = "GITHUB_TOKEN"
max_tokens = 4096
next_page_token = "CAoQAA1b2c3d4e5f6g7h8i9j0"
password = "xxxxxxxxxxxxxxxx"
token = "aaaaaaaaaaaaaaaaaaaaaaaaaaaa"
