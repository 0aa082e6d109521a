# The two commands of the README, and their companions.
.PHONY: up down test check deploy-check bench fixture load

## Start the whole service locally on http://localhost:9000 (prints a demo key), with
## complete FreeDict dictionaries and WordNet's common words (DATA=fixture: the test excerpts).
up:
	bash infra/scripts/local-up.sh

## Stop what `make up` started.
down:
	bash infra/scripts/local-down.sh

## Run every test: format, lint, template lint, unit tests, black-box tests.
test:
	bash infra/scripts/test.sh

## The quick loop, without the stack: format, clippy, cfn-lint, unit and property tests.
check:
	bash infra/scripts/check.sh

## The deploy path offline: sam validate --lint, sam build (x86_64), and every
## artifact SAM built answering its sample event on the local stack.
deploy-check:
	bash infra/scripts/deploy-check.sh

## Benchmarks without the corpus: binary size and cold init of every function
## beside a hello world, and the latency of every read path on the running stack.
bench:
	bash infra/scripts/bench.sh

## Rebuild data/fixture/ (the committed test excerpts) from the Debian packages.
fixture:
	python3 infra/scripts/make-fixture.py

## The load test alone: mixed traffic from 50 clients for 60 s (LOAD_USERS, LOAD_SECONDS).
load:
	bash infra/scripts/load-test.sh
