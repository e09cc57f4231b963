#!/usr/bin/env zsh
# zsh-complete.zsh FPATH_DIR LINE: the candidates zsh offers for LINE<TAB>, one per line, with the completion
# functions in FPATH_DIR. An interactive `zsh -f` in a pseudo-terminal (zpty) runs compinit; compadd is
# wrapped to print what it is given (the technique of zsh-capture-completion).
zmodload zsh/zpty || exit 2
zpty z zsh -f -i
zpty -w z "PROMPT= ; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u"
zpty -w z "zstyle ':completion:*' list-grouped false; zstyle ':completion:*' insert-tab false"
zpty -w z 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; typeset -a __hits; builtin compadd -A __hits "$@"; local ret=$?; (( $#__hits )) || return $ret; print -rl -- "<HIT>"${^__hits}; builtin compadd "$@" }'
zpty -w z "bindkey '^I' complete-word"
# Quoted apart so that the terminal's echo of the command (which a busy machine may redraw after the lines
# before it) does not match: only the printed word does, once zsh has run every line above.
zpty -w z "print '<REA''DY>'"
zpty -r z line '*<READY>*'
zpty -w -n z "$2"$'\t'
# Read what the completion prints until nothing more comes for half a second (at most 10 s).
integer idle=0 deadline=$(( SECONDS + 10 ))
while (( idle < 10 && SECONDS < deadline )); do
  if zpty -r -t z line; then
    idle=0
    [[ $line == *'<HIT>'* ]] && print -r -- "${${line##*<HIT>}%%[$'\r\n']*}"
  else
    idle+=1
    sleep 0.05
  fi
done
zpty -d z
