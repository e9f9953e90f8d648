#!/bin/sh
# AWS_LAMBDA_EXEC_WRAPPER of a function whose node flags must win over the Lambda runtime's own.
#
# Lambda's Node.js runtime starts `node <its flags> --max-semi-space-size=<memory/20>
# --max-old-space-size=<memory*0.9> /var/runtime/index.mjs`, through this file when the function names
# it, the whole command as this file's arguments. Node reads NODE_OPTIONS before its command line,
# so a heap flag in NODE_OPTIONS loses to the runtime's. NODE_FLAGS_AFTER_RUNTIME go in here just
# before the runtime's script, after its flags, and win. One flag per word, as in NODE_OPTIONS.
# Wrapper scripts: https://docs.aws.amazon.com/lambda/latest/dg/runtimes-modify.html (the runtime's
# own flags are not documented; they are read from its published bootstrap).
set -euf
count=$#
index=0
for arg do
  index=$((index + 1))
  if [ "$index" -eq "$count" ]; then
    # shellcheck disable=SC2086 # split into words on purpose (globbing is off: set -f)
    set -- "$@" ${NODE_FLAGS_AFTER_RUNTIME:-} "$arg"
  else
    set -- "$@" "$arg"
  fi
  shift
done
exec "$@"
