#!/usr/bin/env bash
# The REST API with curl: list and create websites, create a website-scoped content_editor key, rotate it,
# revoke it, read the audit log, and delete the example website again.
#
#   SITEWRIGHT_API_KEY=<admin key> bash examples/rest.sh
#
# SITEWRIGHT_BASE_URL defaults to http://localhost:8787/v1 (what `sitewright dev` prints as the REST API).
# Every response is printed as "METHOD PATH -> STATUS" followed by its JSON body. An unexpected status
# stops the script with exit status 1.
set -euo pipefail

BASE_URL="${SITEWRIGHT_BASE_URL:-http://localhost:8787/v1}"
ADMIN_KEY="${SITEWRIGHT_API_KEY:?Set SITEWRIGHT_API_KEY to an admin API key (sitewright dev prints one).}"

RESPONSE=""
STATUS=""

# request EXPECTED_STATUS METHOD PATH [JSON_BODY] [API_KEY]
# Sends one request, prints it and its response, and stores them in RESPONSE and STATUS.
request() {
  local expected=$1 method=$2 path=$3 body=${4:-} key=${5:-$ADMIN_KEY}
  local args=(--silent --show-error -X "$method" -H "Authorization: Bearer $key" -w $'\n%{http_code}')
  if [[ -n $body ]]; then
    args+=(-H "Content-Type: application/json" --data "$body")
  fi
  local output
  output=$(curl "${args[@]}" "$BASE_URL$path")
  RESPONSE=${output%$'\n'*}
  STATUS=${output##*$'\n'}
  echo "$method $path -> $STATUS"
  echo "$RESPONSE"
  echo
  if [[ $STATUS != "$expected" ]]; then
    echo "Expected status $expected, got $STATUS." >&2
    exit 1
  fi
}

# field NAME: the first string value of "NAME" in RESPONSE (ids and keys here never contain quotes).
field() {
  if [[ $RESPONSE != *"\"$1\":\""* ]]; then
    echo "No field '$1' in the response." >&2
    exit 1
  fi
  local rest=${RESPONSE#*\"$1\":\"}
  echo "${rest%%\"*}"
}

echo "== List websites"
request 200 GET "/websites?limit=5"

echo "== Create a website"
request 200 POST /websites "{\"name\":\"REST example $(date +%s)\"}"
WEBSITE_ID=$(field id)
ORGANIZATION_ID=$(field organizationId)

echo "== Create a content_editor key scoped to that website"
request 200 POST /apiKeys "{\"organizationId\":\"$ORGANIZATION_ID\",\"name\":\"REST example editor\",\"access\":{\"kind\":\"websites\",\"websiteIds\":[\"$WEBSITE_ID\"],\"role\":\"content_editor\"}}"
KEY_ID=$(field id)
EDITOR_KEY=$(field plaintextKey)

echo "== The new key sees only its website"
request 200 GET /websites "" "$EDITOR_KEY"

echo "== It cannot create websites (its role lacks websites.create)"
request 403 POST /websites '{"name":"Not allowed"}' "$EDITOR_KEY"

echo "== Rotate the key: a new secret, returned once; the old one stops working"
request 200 POST "/apiKeys/$KEY_ID/rotate"
NEW_EDITOR_KEY=$(field plaintextKey)
request 401 GET /websites "" "$EDITOR_KEY"
request 200 GET /websites "" "$NEW_EDITOR_KEY"

echo "== Revoke the key: permanent; it fails authentication from the next request on"
request 200 POST "/apiKeys/$KEY_ID/revoke"
request 401 GET /websites "" "$NEW_EDITOR_KEY"

echo "== Read the audit log of the organization (newest first)"
request 200 GET "/organizations/$ORGANIZATION_ID/audit-log?limit=10"

echo "== Delete the example website"
request 200 DELETE "/websites/$WEBSITE_ID"

echo "Done."
