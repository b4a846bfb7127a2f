# SPDX-License-Identifier: GPL-2.0-or-later
# A real local "lore" for end-to-end tests: source after lib.sh.
#
#   lore_init [NAME [ADDRESS...]]
#                             a public-inbox v2 inbox in $TRASH/pi/NAME
#                             (default test-list), full-text indexed
#                             (LORE_LEVEL=basic: no Xapian, no search),
#                             for NAME@example.org and the ADDRESSes (the
#                             real lists' addresses: public-inbox-mda
#                             keeps only mail sent to one of them)
#   lore_add MBOX...          imports every message of the mboxes
#   lore_start                starts public-inbox-httpd on 127.0.0.1 on a
#                             free port (LORE_BIND_PORT=N: on port N, to
#                             restart a server where it was): sets
#                             LORE_PORT, LORE_URL (the inbox's URL) and
#                             LORE_PID, waits until it answers (a running
#                             server shows new mail in its search only
#                             after ~30 s: restart it instead)
#   lore_stop                 stops it (also done on exit)
#   lore_http_status URL      the status of a GET, or "none"
#   lore_fake_start MODE      a tiny loopback server that is not a real
#                             inbox, for failures a real one will not
#                             produce: MODE "silent" accepts and never
#                             answers, "status CODE" answers every request
#                             with CODE.  Sets FAKE_PORT, FAKE_URL,
#                             FAKE_PID; request lines go to $FAKE_LOG.
#   lore_fake_stop
#   mbox_msgids FILE...       every Message-ID in the mboxes (no <>),
#                             sorted, unique
#
# Every server listens on 127.0.0.1 only.  The listening socket is
# bound to port 0 by a small perl wrapper before the server starts
# (public-inbox-httpd inherits it as a systemd-style LISTEN_FDS socket),
# so there is no race for a "free" port.  Servers are stopped by their
# PID, never by name.

LORE_INBOX=test-list
LORE_PID=
FAKE_PID=
export PI_CONFIG="$TRASH/pi/config"
export PI_EMERGENCY="$TRASH/pi/emergency"

# lib.sh cleans up on EXIT; add our servers to it (keep in step).
trap 'lore_stop; lore_fake_stop; cd /; [ -n "${KEEP_TRASH:-}" ] || rm -rf "$TRASH"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# _lore_bind PORTFILE CMD...: binds 127.0.0.1:0, writes the port to
# PORTFILE, then execs CMD with the socket on fd 3 (LISTEN_FDS=1).
_lore_bind() {
	exec perl -MSocket -MIO::Socket::INET -e '
		my $port_file = shift;
		my $s = IO::Socket::INET->new(Listen => 64, LocalAddr => "127.0.0.1",
			LocalPort => $ENV{LORE_BIND_PORT} || 0, Proto => "tcp",
			ReuseAddr => 1,
			Blocking => 0)
			or die "cannot listen on 127.0.0.1: $!\n";
		open(my $fh, ">", "$port_file.tmp") or die "$port_file: $!\n";
		print $fh $s->sockport, "\n";
		close $fh; rename("$port_file.tmp", $port_file) or die "$!\n";
		my $fd = fileno($s);
		if ($fd != 3) {
			require POSIX;
			POSIX::dup2($fd, 3) or die "dup2: $!\n";
		}
		# keep fd 3 open across exec
		use Fcntl qw(F_GETFD F_SETFD FD_CLOEXEC);
		open(my $three, "<&=3") or die "fd 3: $!\n";
		my $flags = fcntl($three, F_GETFD, 0);
		fcntl($three, F_SETFD, $flags & ~FD_CLOEXEC);
		$ENV{LISTEN_FDS} = 1;
		$ENV{LISTEN_PID} = $$;
		exec(@ARGV) or die "exec $ARGV[0]: $!\n";
	' "$@"
}

# _lore_wait_port PORTFILE PID WHAT: waits (bounded) for the port file.
_lore_wait_port() {
	_i=0
	while [ ! -s "$1" ]; do
		if ! kill -0 "$2" 2>/dev/null; then
			echo "lib-lore: $3 died before listening" >&2
			return 1
		fi
		_i=$((_i + 1))
		if [ $_i -gt 100 ]; then
			echo "lib-lore: $3 did not listen within 10 s" >&2
			return 1
		fi
		sleep 0.1
	done
	cat "$1"
}

# _lore_kill PID: TERM, then KILL after 5 s; reaps it.
_lore_kill() {
	kill "$1" 2>/dev/null || return 0
	_i=0
	while kill -0 "$1" 2>/dev/null && [ $_i -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

lore_init() {
	LORE_INBOX=${1:-test-list}
	[ $# -gt 0 ] && shift
	mkdir -p "$TRASH/pi" "$PI_EMERGENCY" &&
	public-inbox-init -V2 -L "${LORE_LEVEL:-full}" "$LORE_INBOX" \
		"$TRASH/pi/$LORE_INBOX" "http://127.0.0.1/$LORE_INBOX" \
		"$LORE_INBOX@example.org" "$@" &&
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none
}

# lore_add MBOX...: one perl process imports all the mboxes through
# public-inbox's own importer (about 2 s for 35 messages, against 0.25 s
# a message with public-inbox-mda); LORE_FEED=mda, or a public-inbox
# whose internals moved, takes the slow documented path: each message
# through public-inbox-mda (--no-precheck: list mail is not addressed
# to the test inbox).
lore_add() {
	if [ "${LORE_FEED:-}" != mda ] &&
	   perl -MPublicInbox::Config -MPublicInbox::InboxWritable -e '
		my $name = shift;
		my $ibx = PublicInbox::Config->new->lookup_name($name)
			or die "no inbox $name\n";
		$ibx = PublicInbox::InboxWritable->new($ibx);
		for my $f (@ARGV) {
			open(my $fh, "<", $f) or die "$f: $!\n";
			$ibx->import_mbox($fh, "mboxrd");
		}' "$LORE_INBOX" "$@" 2>"$TRASH/pi/import.err"; then
		_lore_check_added "$@"
		return
	fi
	[ "${LORE_FEED:-}" = mda ] ||
		sed 's/^/lib-lore: fast import failed: /' "$TRASH/pi/import.err" >&2
	_d="$TRASH/pi/split"
	for _f in "$@"; do
		rm -rf "$_d" && mkdir -p "$_d" &&
		git mailsplit --mboxrd -o"$_d" "$_f" >/dev/null || return 1
		for _m in "$_d"/*; do
			ORIGINAL_RECIPIENT="$LORE_INBOX@example.org" \
			public-inbox-mda --no-precheck <"$_m" || {
				echo "lib-lore: public-inbox-mda failed on $_m" >&2
				return 1
			}
		done
	done
	_lore_check_added "$@"
}

# Every Message-ID of the mboxes must be in the inbox (mda drops what it
# rejects into $PI_EMERGENCY and still exits 0).
_lore_check_added() {
	mbox_msgids "$@" >"$TRASH/pi/want-ids" &&
	perl -MPublicInbox::Config -e '
		my $ibx = PublicInbox::Config->new->lookup_name(shift) or die;
		my $mm = $ibx->mm or die "no msgmap\n";
		my $bad = 0;
		while (my $mid = <STDIN>) {
			chomp $mid;
			next if defined $mm->num_for($mid);
			print STDERR "lib-lore: not in the inbox: <$mid>\n";
			$bad = 1;
		}
		exit $bad;' "$LORE_INBOX" <"$TRASH/pi/want-ids"
}

# lore_start: starts public-inbox-httpd; LORE_URL is the inbox's URL.
lore_start() {
	rm -f "$TRASH/pi/httpd.port"
	_lore_bind "$TRASH/pi/httpd.port" public-inbox-httpd -W0 \
		-1 "$TRASH/pi/httpd.out" -2 "$TRASH/pi/httpd.err" &
	LORE_PID=$!
	LORE_PORT=$(_lore_wait_port "$TRASH/pi/httpd.port" "$LORE_PID" \
		public-inbox-httpd) || { cat "$TRASH/pi/httpd.err" >&2; lore_stop; return 1; }
	LORE_URL="http://127.0.0.1:$LORE_PORT/$LORE_INBOX"
	# The socket is there at once; wait until the inbox answers.
	_i=0
	until [ "$(lore_http_status "$LORE_URL/_/text/help/")" = 200 ]; do
		_i=$((_i + 1))
		if [ $_i -gt 100 ] || ! kill -0 "$LORE_PID" 2>/dev/null; then
			echo "lib-lore: public-inbox-httpd does not answer at $LORE_URL" >&2
			cat "$TRASH/pi/httpd.err" >&2
			lore_stop
			return 1
		fi
		sleep 0.1
	done
	export LORE_URL LORE_PORT LORE_PID
}

# lore_http_status URL: the HTTP status of GET URL ("none" when nothing
# answers within 2 s); plain perl, so no curl(1) is needed.
lore_http_status() {
	perl -MIO::Socket::INET -e '
		my ($host, $port, $path) =
			$ARGV[0] =~ m{^http://([^/:]+):(\d+)(/.*)?$} or die "bad URL\n";
		$path //= "/";
		local $SIG{ALRM} = sub { print "none\n"; exit 0 };
		alarm 2;
		my $s = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port,
			Proto => "tcp") or do { print "none\n"; exit 0 };
		print $s "GET $path HTTP/1.0\r\nHost: $host:$port\r\n\r\n";
		my $line = <$s> // "";
		print $line =~ m{^HTTP/\S+ (\d+)} ? "$1\n" : "none\n";' "$1"
}

lore_stop() {
	[ -n "$LORE_PID" ] || return 0
	_lore_kill "$LORE_PID"
	LORE_PID=
}

lore_fake_start() {
	FAKE_LOG="$TRASH/fake.log"
	: >"$FAKE_LOG"
	rm -f "$TRASH/fake.port"
	_lore_bind "$TRASH/fake.port" perl -MIO::Socket::INET -e '
		my ($mode, $code, $log) = @ARGV;
		open(my $srv, "+<&=3") or die "fd 3: $!\n";
		bless $srv, "IO::Socket::INET";
		$srv->blocking(1);
		my @held;
		$SIG{TERM} = sub { exit 0 };
		while (my $c = $srv->accept) {
			my $line = <$c>;
			open(my $l, ">>", $log) or die;
			print $l ($line // "(nothing)\n");
			close $l;
			if ($mode eq "silent") {
				push @held, $c;	# never answer, never close
				next;
			}
			while (my $h = <$c>) { last if $h =~ /^\r?\n$/ }
			print $c "HTTP/1.1 $code Test\r\nContent-Length: 5\r\n",
				"Connection: close\r\n\r\ntest\n";
			close $c;
		}' "$1" "${2:-0}" "$FAKE_LOG" &
	FAKE_PID=$!
	FAKE_PORT=$(_lore_wait_port "$TRASH/fake.port" "$FAKE_PID" \
		"the test server") || { lore_fake_stop; return 1; }
	FAKE_URL="http://127.0.0.1:$FAKE_PORT/test-list"
	export FAKE_URL FAKE_PORT FAKE_PID FAKE_LOG
}

lore_fake_stop() {
	[ -n "$FAKE_PID" ] || return 0
	_lore_kill "$FAKE_PID"
	FAKE_PID=
}

# mbox_msgids FILE...: Message-IDs in the header of each message.
mbox_msgids() {
	awk '
	/^From / { hdr = 1; want = 0; next }
	hdr && /^$/ { hdr = 0; want = 0; next }
	!hdr { next }
	want && /^[ \t]/ { print; want = 0; next }
	{ want = 0 }
	tolower($0) ~ /^message-id:/ {
		v = substr($0, 12)
		if (v ~ /[^ \t]/) print v; else want = 1
	}' "$@" |
	sed -n 's/.*<\([^>]*\)>.*/\1/p' | sort -u
}
