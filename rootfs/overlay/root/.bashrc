# Non-login interactive bash (e.g. "bash" typed at the prompt).
[ -r /etc/profile ] && . /etc/profile
