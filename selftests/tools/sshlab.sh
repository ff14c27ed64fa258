#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Network namespaces that play real hosts for bbr2-lab's SSH mode: each gets
# its own sshd (its own config, host key and pid file under SSHLAB_DIR) on
# an address of the namespace, and this shell an ssh_config that reaches
# them with a key made for the test.  Sourced by the tools tests.
#
#   sshlab_init DIR          keys, known_hosts, ssh_config under DIR
#   sshlab_sshd NS ADDR      start an sshd in NS listening on ADDR:22
#   sshlab_stop              stop every sshd started here
#
# SSHLAB_CONFIG is the ssh_config (ssh -F) for the controller.

SSHLAB_DIR=""
SSHLAB_CONFIG=""
SSHLAB_PIDS=()

sshlab_init()
{
	SSHLAB_DIR=$1
	mkdir -p "$SSHLAB_DIR" || return 1
	chmod 700 "$SSHLAB_DIR"
	rm -f "$SSHLAB_DIR"/id "$SSHLAB_DIR"/id.pub "$SSHLAB_DIR"/hostkey "$SSHLAB_DIR"/hostkey.pub
	ssh-keygen -q -t ed25519 -N "" -C bbr2-lab-test -f "$SSHLAB_DIR/id" || return 1
	ssh-keygen -q -t ed25519 -N "" -C bbr2-lab-test-host -f "$SSHLAB_DIR/hostkey" || return 1
	cp "$SSHLAB_DIR/id.pub" "$SSHLAB_DIR/authorized_keys"
	: >"$SSHLAB_DIR/known_hosts"
	SSHLAB_CONFIG=$SSHLAB_DIR/ssh_config
	cat >"$SSHLAB_CONFIG" <<-EOF
	Host *
		User root
		IdentityFile $SSHLAB_DIR/id
		IdentitiesOnly yes
		UserKnownHostsFile $SSHLAB_DIR/known_hosts
		GlobalKnownHostsFile /dev/null
		StrictHostKeyChecking yes
		LogLevel ERROR
	EOF
	# The sshds see their own /etc/passwd: root's shell /bin/sh and home an
	# empty directory.  bash started by sshd reads ~/.bashrc even for
	# "bash -c", and a user's .bashrc (pyenv init, ...) can cost seconds
	# per remote command under TCG -- hundreds of them in a test.
	mkdir -p "$SSHLAB_DIR/home"
	getent passwd | sed "s|^root:\([^:]*\):0:0:\([^:]*\):[^:]*:[^:]*\$|root:\1:0:0:\2:$SSHLAB_DIR/home:/bin/sh|" \
		>"$SSHLAB_DIR/passwd"
	chmod 644 "$SSHLAB_DIR/passwd"
	# virtme-ng locks every account in the guest ("!" in a generated
	# /etc/shadow), and an sshd without PAM refuses a locked root even with
	# a key: their /etc/shadow has root password-less but not locked
	getent shadow | sed 's/^root:[^:]*:/root:*:/' >"$SSHLAB_DIR/shadow"
	chmod 600 "$SSHLAB_DIR/shadow"
	# sshd refuses to start without its privilege separation directory
	# (a fresh /run in the guest has none)
	mkdir -p /run/sshd
	chmod 755 /run/sshd
}

# sshlab_sshd NS ADDR: an sshd of its own in NS, on ADDR only
sshlab_sshd()
{
	local ns=$1 addr=$2 conf pid

	conf=$SSHLAB_DIR/sshd-$ns.conf
	cat >"$conf" <<-EOF
	ListenAddress $addr
	Port 22
	HostKey $SSHLAB_DIR/hostkey
	PidFile $SSHLAB_DIR/sshd-$ns.pid
	AuthorizedKeysFile $SSHLAB_DIR/authorized_keys
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	StrictModes no
	PrintMotd no
	UseDNS no
	MaxStartups 50
	MaxSessions 50
	LogLevel VERBOSE
	EOF
	# its own /etc/passwd and /etc/shadow (sshlab_init says why)
	# shellcheck disable=SC2016 # $1.. are sh -c's arguments
	ip netns exec "$ns" unshare -m --propagation private sh -c \
		'mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/shadow &&
		 exec /usr/sbin/sshd -f "$3" -E "$4"' \
		sh "$SSHLAB_DIR/passwd" "$SSHLAB_DIR/shadow" "$conf" \
		"$SSHLAB_DIR/sshd-$ns.log" || return 1
	for _ in $(seq 1 50); do
		[ -s "$SSHLAB_DIR/sshd-$ns.pid" ] && break
		sleep 0.1
	done
	pid=$(cat "$SSHLAB_DIR/sshd-$ns.pid" 2>/dev/null) || return 1
	SSHLAB_PIDS+=("$pid")
	echo "$addr $(cut -d' ' -f1,2 "$SSHLAB_DIR/hostkey.pub")" >>"$SSHLAB_DIR/known_hosts"
}

sshlab_stop()
{
	local p

	for p in "${SSHLAB_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	SSHLAB_PIDS=()
	return 0
}
