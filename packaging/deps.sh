#!/bin/sh
# Installs what building and testing AgentDesk needs and is missing.
# Debian/Ubuntu as root (or with sudo): apt-get. Elsewhere: says what to
# install. Quick and silent when everything is there.
set -eu

debian_packages="gcc libgl1-mesa-dev xorg-dev xvfb xdotool x11-utils imagemagick git time"

need_go() {
	if ! command -v go >/dev/null 2>&1; then
		echo "Go is missing: install Go 1.26 or newer from https://go.dev/dl/" >&2
		exit 1
	fi
}

debian() {
	missing=""
	for p in $debian_packages; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" = 0 ]; then
		sudo=""
	elif command -v sudo >/dev/null 2>&1; then
		sudo="sudo"
	else
		echo "Missing Debian packages:$missing. Install them as root: apt-get install$missing" >&2
		exit 1
	fi
	echo "Installing:$missing"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

case "$(uname -s)" in
Linux)
	if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
		debian
	else
		echo "Not a Debian/Ubuntu system: install a C compiler, the OpenGL and X11 development headers (Fedora: gcc libXcursor-devel libXrandr-devel mesa-libGL-devel libXi-devel libXinerama-devel libXxf86vm-devel), git, and for the window tests Xvfb, xdotool and ImageMagick."
	fi
	;;
Darwin)
	if ! xcode-select -p >/dev/null 2>&1; then
		echo "Install the Xcode command line tools: xcode-select --install" >&2
		exit 1
	fi
	;;
*)
	echo "Unsupported system $(uname -s): install Go, a C compiler (gcc/MinGW) and git; see https://docs.fyne.io/started/" ;;
esac
need_go
