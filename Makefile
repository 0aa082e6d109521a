# The two commands of the README, and their companions.
.PHONY: up down test

## Start the whole service locally on http://localhost:9000 (prints a demo key).
up:
	bash infra/scripts/local-up.sh

## Stop what `make up` started.
down:
	bash infra/scripts/local-down.sh

## Run every test: format, lint, template lint, unit tests, black-box tests.
test:
	bash infra/scripts/test.sh
