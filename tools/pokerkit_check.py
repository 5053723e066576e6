#!/usr/bin/env python3
"""Replay felt's PHH hand histories in PokerKit and compare the finishing stacks.

Usage (PokerKit is pure Python: a source checkout is enough, nothing to install):

    git clone https://github.com/uoftcprg/pokerkit /tmp/pokerkit
    felt simulate --stacks 20-1519 --hands 2500 --out nl.phhs
    PYTHONPATH=/tmp/pokerkit python3 tools/pokerkit_check.py nl.phhs [more.phh ...]

Every hand of each .phh or .phhs file is played in PokerKit action by action (as
PokerKit's HandHistory does, but without its repairs: see replay) and ends in one of
these:

  agree         PokerKit ends the hand with felt's finishing_stacks.
  odd chip      the stacks differ only by how a split pot's odd chips were handed
                out: felt gives them one at a time to the winners from the left of
                the button (RULES.md), PokerKit all to the first.
  limit all-in  PokerKit refuses a fixed-limit bet or raise after an all-in for less
                than a full bet, where felt follows the TDA rule (see limit_all_in).
  differ        PokerKit ends with other stacks.
  rejected      PokerKit refuses one of the actions (its reason is printed).
  skipped       a variant PokerKit does not play (felt's three card stud, _3CS).

A pot-limit file (variant NT with _betting = "pot-limit") is played as pot-limit
Texas Hold'em, PokerKit's pot-limit rules on its no-limit game, so that its pot-sized
maximums are checked too (--pl-as-nl plays it as no limit, as PokerKit alone would).

The exit status is 0 when no hand differs or is rejected (the two documented
differences above are listed, not failed), 1 otherwise, 2 when PokerKit cannot be
imported. It needs Python 3.11 or later, as PokerKit does; CI does not run it
(PokerKit is not vendored). docs/phh.md has the figures.
"""

import argparse
import sys
import warnings

try:
    from pokerkit import BettingStructure, ChipsPushing, HandHistory, NoLimitTexasHoldem
    from pokerkit.notation import parse_action
except ImportError as exc:
    print(
        f'pokerkit_check: cannot import pokerkit ({exc}); set PYTHONPATH to a'
        ' PokerKit source checkout (github.com/uoftcprg/pokerkit)',
        file=sys.stderr,
    )
    sys.exit(2)


class PotLimitTexasHoldem(NoLimitTexasHoldem):
    """Texas Hold'em with PokerKit's pot-limit betting (it has no such PHH variant)."""

    betting_structure = BettingStructure.POT_LIMIT


CATEGORIES = ('agree', 'odd chip', 'limit all-in', 'differ', 'rejected', 'skipped')


def load(path):
    """Return the hands of a .phh or .phhs file, numbered as in the file."""
    with open(path, 'rb') as fp:
        if path.endswith('.phhs'):
            return list(enumerate(HandHistory.load_all(fp), 1))
        return [(1, HandHistory.load(fp))]


def replay(hh):
    """Play hh in PokerKit; return (state, action, reason): the state reached, and
    the action PokerKit refused with its reason, or None and None when the hand ended.

    It is HandHistory.state_actions without its repairs: that loop, when an action
    does not apply, checks or folds for the player to act and tries again, which
    would pass over a player felt skipped. Here an action that does not apply after
    the dealer's own steps (antes, blinds, burns, bets collected, pots pushed) is
    refused."""
    state = hh.create_state()
    for action in hh.actions:
        while True:
            try:
                parse_action(state, action, hh.parse_value)
                break
            except ValueError as exc:
                if not dealer_step(state):
                    return state, action, str(exc)
    while dealer_step(state):
        pass
    if state.status:
        return state, '', 'the hand is not over after the last action'
    return state, None, None


def dealer_step(state):
    """Take one step no player decides, as HandHistory.state_actions does; return
    whether there was one."""
    if state.can_post_ante():
        state.post_ante()
    elif state.can_collect_bets():
        state.collect_bets()
    elif state.can_post_blind_or_straddle():
        state.post_blind_or_straddle()
    elif state.can_burn_card():
        state.burn_card('??')
    elif state.can_deal_hole():
        state.deal_hole('??')
    elif state.status and state.can_show_or_muck_hole_cards(()):
        state.show_or_muck_hole_cards(())
    elif state.can_select_runout_count():
        state.select_runout_count()
    elif state.can_kill_hand():
        state.kill_hand()
    elif state.can_push_chips():
        state.push_chips()
    elif state.can_pull_chips():
        state.pull_chips()
    else:
        return False
    return True


def limit_all_in(hh, state, action):
    """Whether a rejected action is a bet or raise after a fixed-limit all-in of less
    than a full bet in the same round, where felt follows RULES.md (the TDA rule) and
    PokerKit does not: felt lets the next player complete an all-in of less than half
    a bet to one full bet (PokerKit wants a full bet on top of the all-in), counts
    such an all-in toward neither the cap nor reopening, and lets one of at least half
    a bet reopen the betting and count toward the cap (PokerKit counts every all-in
    toward the cap and reopens only after a full bet)."""
    words = action.split()
    if hh.variant != 'FT' or len(words) != 3 or words[1] != 'cbr':
        return False
    size = state.street.min_completion_betting_or_raising_amount
    return any(
        b % size and not s for b, s in zip(state.bets, state.stacks)
    )


def odd_chips_only(felt, kit, felt_won, kit_won):
    """Whether stacks that differ do so only by a split pot's odd chips: the same
    total, and every player who differs collected chips in both and by less than one
    chip per player at the table."""
    diff = [a - b for a, b in zip(felt, kit)]
    if sum(diff) != 0:
        return False
    for i, d in enumerate(diff):
        if d and (abs(d) >= len(felt) or not felt_won[i] or not kit_won[i]):
            return False
    return True


def check(hh, pl_as_nl):
    """Classify one hand: (category, detail)."""
    if hh.variant not in HandHistory.game_types:
        return 'skipped', f'variant {hh.variant}'
    betting = hh.user_defined_fields.get('_betting')
    if betting == 'pot-limit' and not pl_as_nl:
        hh.game_types = HandHistory.game_types | {'NT': PotLimitTexasHoldem}
    state, action, reason = replay(hh)
    if action is not None:
        detail = f'{action!r}: {reason}'
        if limit_all_in(hh, state, action):
            return 'limit all-in', detail
        return 'rejected', detail
    kit = list(state.stacks)
    felt = list(hh.finishing_stacks)
    if kit == felt:
        return 'agree', ''
    felt_won = [w > 0 for w in (hh.winnings or [0] * len(felt))]
    detail = f'felt {felt}, PokerKit {kit}'
    if odd_chips_only(felt, kit, felt_won, pushed(state)):
        return 'odd chip', detail
    return 'differ', detail


def pushed(state):
    """Whether each player was pushed chips from a pot in PokerKit's replay."""
    got = [False] * len(state.stacks)
    for op in state.operations:
        if isinstance(op, ChipsPushing):
            for i, amount in enumerate(op.amounts):
                got[i] = got[i] or amount > 0
    return got


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('files', nargs='+', help='.phh or .phhs files written by felt')
    parser.add_argument('--show', type=int, default=5, metavar='N',
                        help='hands listed per category that is not agree (default 5)')
    parser.add_argument('--pl-as-nl', action='store_true',
                        help='play pot-limit files as no limit')
    args = parser.parse_args()
    warnings.simplefilter('ignore')
    bad = False
    for path in args.files:
        counts = dict.fromkeys(CATEGORIES, 0)
        listed = dict.fromkeys(CATEGORIES, 0)
        for number, hh in load(path):
            category, detail = check(hh, args.pl_as_nl)
            counts[category] += 1
            if category != 'agree' and listed[category] < args.show:
                listed[category] += 1
                print(f'{path} hand {number}: {category}: {detail}')
        total = sum(counts.values())
        summary = ', '.join(f'{counts[c]} {c}' for c in CATEGORIES if counts[c] or c == 'agree')
        print(f'{path}: {total} hands: {summary}')
        bad = bad or counts['differ'] > 0 or counts['rejected'] > 0
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
