#!/usr/bin/env bash
# Start this machine's PostgreSQL and Redis when they are down (CI needs them).
# Exits 0 when both accept connections, 1 otherwise (with the reason).
set -u
up() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! up 5432; then
  echo "starting PostgreSQL"
  cluster=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)
  if [ -n "$cluster" ] && command -v pg_ctlcluster >/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$cluster" main start \
      || echo "warning: pg_ctlcluster $cluster main start failed"
  else
    echo "warning: no PostgreSQL cluster found under /etc/postgresql"
  fi
fi
if ! up 6379; then
  echo "starting Redis"
  if command -v redis-server >/dev/null; then
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log \
      || echo "warning: redis-server failed to start"
  else
    echo "warning: redis-server is not installed"
  fi
fi
for _ in $(seq 1 30); do
  up 5432 && up 6379 && exit 0
  sleep 1
done
up 5432 || echo "error: PostgreSQL does not accept connections on 127.0.0.1:5432"
up 6379 || echo "error: Redis does not accept connections on 127.0.0.1:6379"
exit 1
