#!/bin/sh
curl -X POST https://hooks.slack.com/services/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 -d "$payload" # want "Hardcoded Slack webhook URL"
export TOKEN="$GITHUB_TOKEN"
