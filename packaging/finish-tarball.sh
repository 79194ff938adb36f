#!/usr/bin/env bash
# finish-tarball.sh TARBALL: completes the Linux package `fyne package`
# makes. fyne writes the binary, a .desktop file and the icon; this adds
# the AppStream metainfo (software centres read it), puts our own .desktop
# file in (Terminal=false, the IDE category) and teaches the bundled
# Makefile to install and uninstall the metainfo too. It also adds the
# sandbox helper (bin/agentdesk-sandbox, agent/childproc) beside the binary.
set -euo pipefail

tarball=$1
here=$(cd "$(dirname "$0")" && pwd)
id=io.agentdesk.AgentDesk
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tar -xJf "$tarball" -C "$work"
root="$work/agentdesk"
[[ -f $root/Makefile && -d $root/usr/local/share ]] || { echo "finish-tarball: $tarball is not the layout fyne package makes" >&2; exit 1; }

install -Dm0644 "$here/$id.metainfo.xml" "$root/usr/local/share/metainfo/$id.metainfo.xml"
# The sandbox's re-exec lives beside the binary (agent/childproc).
install -Dm0755 "$here/../bin/agentdesk-sandbox" "$root/usr/local/bin/agentdesk-sandbox"
install -Dm0644 "$here/$id.desktop" "$root/usr/local/share/applications/$id.desktop"

# One install and one removal line per target, after fyne's own (once:
# the script may run on its own output again).
metainfo='usr/local/share/metainfo/$(AppID).metainfo.xml'
if ! grep -q metainfo "$root/Makefile"; then
	awk -v mi="$metainfo" '
		{ print }
		/^install:/        { print "\tinstall -Dm00644 " mi " $(DESTDIR)$(PREFIX)/share/metainfo/$(AppID).metainfo.xml" }
		/^uninstall:/      { print "\t-rm $(DESTDIR)$(PREFIX)/share/metainfo/$(AppID).metainfo.xml" }
		/^user-install:/   { print "\tinstall -Dm00644 " mi " $(DESTDIR)$(HOME)/.local/share/metainfo/$(AppID).metainfo.xml" }
		/^user-uninstall:/ { print "\t-rm $(DESTDIR)$(HOME)/.local/share/metainfo/$(AppID).metainfo.xml" }
		/^install:/        { print "\tinstall -Dm00755 usr/local/bin/agentdesk-sandbox $(DESTDIR)$(PREFIX)/bin/agentdesk-sandbox" }
		/^uninstall:/      { print "\t-rm $(DESTDIR)$(PREFIX)/bin/agentdesk-sandbox" }
		/^user-install:/   { print "\tinstall -Dm00755 usr/local/bin/agentdesk-sandbox $(DESTDIR)$(HOME)/.local/bin/agentdesk-sandbox" }
		/^user-uninstall:/ { print "\t-rm $(DESTDIR)$(HOME)/.local/bin/agentdesk-sandbox" }
	' "$root/Makefile" > "$work/Makefile"
	mv "$work/Makefile" "$root/Makefile"
fi

tar -cJf "$work/out.tar.xz" -C "$work" agentdesk
mv "$work/out.tar.xz" "$tarball"

# The package must install what it lists.
# (grep without -q: an early exit would break tar's pipe under pipefail)
tar -tJf "$tarball" | grep -x "agentdesk/usr/local/share/metainfo/$id.metainfo.xml" >/dev/null
[[ $(tar -xJOf "$tarball" agentdesk/Makefile | grep -c metainfo) == 4 ]]
tar -tJf "$tarball" | grep -x "agentdesk/usr/local/bin/agentdesk-sandbox" >/dev/null
[[ $(tar -xJOf "$tarball" agentdesk/Makefile | grep -c agentdesk-sandbox) == 4 ]]
echo "finish-tarball: $tarball has the binary, the sandbox helper, .desktop, icon and AppStream metainfo"
