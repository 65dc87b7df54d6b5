#!/bin/sh
# A bot in POSIX shell for the bridge's line protocol asnas-bot/1 (docs/bots.md): it reads
# one decision a line and answers one action a line. It looks at its cards, then calls or
# holds with a pair or better and folds the rest, raising with three of a kind or better.
#
# BOT_LOG, if set, names a file it appends every line it reads to (the tests read them).
# MISBEHAVE (garbage, late or exit) makes it fail its first decision that way, once: a file
# named by MISBEHAVE_MARK records that it did, so the copy the bridge starts again plays.
while IFS= read -r line; do
    [ -n "$BOT_LOG" ] && printf '%s\n' "$line" >> "$BOT_LOG"
    if [ -n "$MISBEHAVE" ] && [ ! -e "$MISBEHAVE_MARK" ]; then
        : > "$MISBEHAVE_MARK"
        case $MISBEHAVE in
            garbage) echo "dance on the table"; continue ;;
            late) sleep 30 ;;
            exit) exit 3 ;;
        esac
    fi
    case $line in
        "asnas-bot/1 "*) ;;
        *) echo "shell bot: not a line of asnas-bot/1: $line" >&2; exit 2 ;;
    esac
    legal=${line##* legal=}
    hand=${line##* hand=}
    hand=${hand%% *}
    action=""
    case ",$legal," in
        *,look,*) action=look ;;
    esac
    if [ -z "$action" ]; then
        # How many of the hand's cards have a twin: 0 nothing, 2 a pair, 4 two pairs, 3+ trips.
        pairs=0
        for card in $(echo "$hand" | tr ',' ' '); do
            count=$(echo "$hand" | tr "," "\n" | grep -cx "$card")
            [ "$count" -ge 2 ] && pairs=$((pairs + 1))
        done
        if [ "$pairs" -ge 3 ] && [ "$pairs" -ne 4 ]; then
            for choice in raise call hold; do
                case ",$legal," in *,"$choice",*) action=$choice; break ;; esac
            done
        elif [ "$pairs" -ge 2 ]; then
            for choice in hold call; do
                case ",$legal," in *,"$choice",*) action=$choice; break ;; esac
            done
        fi
        if [ -z "$action" ]; then
            case ",$legal," in
                *,hold,*) action=hold ;;
                *) action=fold ;;
            esac
        fi
    fi
    echo "$action"
done
