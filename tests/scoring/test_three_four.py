"""Three and four at a table, and games to 61 and 91 (docs/rules.md §7): each rule of
the rule books' sections on three and four players and their variants, as
docs/rules.md §5 and §7 state them, as a deal.

Deals are stacked: seat 0 deals the first deal, so seat 1 (on the dealer's left) is the
pone, who cuts and leads; with four, seats 0 and 2 are partners (side 0) against 1 and 3
(side 1).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from scoring.rules.cards import Card, parse_cards
from scoring.rules.deal import cut_for_deal
from scoring.rules.events import EventType, IllegalPlayError, Phase, Refusal, Skunk
from scoring.rules.game import Game
from scoring.rules.replay import RecordError, game_from_record
from tests.scoring.gameplay import lay, trace

PLAY_AND_SHOW = ("play", "go", "last", "reset", "show", "heels", "win")


def stacked(
    hands: Sequence[str],
    starter: str,
    *,
    from_pack: str = "",
    scores: Sequence[int] | None = None,
    target: int = 121,
    dealer: int = 0,
) -> Game:
    """A game whose first deal is ``hands`` (by seat), ``starter`` and ``from_pack``."""
    deal = (
        tuple(parse_cards(hand) for hand in hands),
        Card.parse(starter),
        tuple(parse_cards(from_pack)),
    )
    return Game.new(
        seed=3,
        seats=len(hands),
        first_dealer=dealer,
        stacked=[deal],
        scores=scores,
        target=target,
    )


def lay_away(game: Game, *cards: str) -> None:
    """Each seat's card laid away, seat 0's first."""
    for seat, card in enumerate(cards):
        game.discard(seat, [Card.parse(card)])


# Three seats, seat 0 dealing. Each seat keeps four of five; the crib is the pack's card
# and one from each.
THREE = ("8S 2S TD 9D 3H", "KS 9C 6C 5C 4H", "QH JH 8H 7C 5H")
THREE_AWAY = ("3H", "4H", "5H")
THREE_PLAY = "KS QH 8S 2S 9C JH TD 6C 8H 9D 5C 7C"


def three_seats(**options: object) -> Game:
    game = stacked(THREE, "AC", from_pack="6H", **options)  # type: ignore[arg-type]
    lay_away(game, *THREE_AWAY)
    return game


# ------------------------------------------------------------ three: the deal


def test_three_each_dealt_five_and_one_from_the_pack_to_the_crib() -> None:
    game = stacked(THREE, "AC", from_pack="6H")
    assert [len(game.hand(seat)) for seat in range(3)] == [5, 5, 5]
    assert game.awaiting == {0, 1, 2}
    assert game.to_move == 1, "the pone (on the dealer's left) lays away first"
    assert all(len(option) == 1 for option in game.legal_discards(1))
    assert len(game.legal_discards(1)) == 5
    lay_away(game, *THREE_AWAY)
    assert [len(game.kept(seat)) for seat in range(3)] == [4, 4, 4]
    assert game.crib == tuple(parse_cards("6H 4H 5H 3H")), "the pack's card, then from the left"


def test_three_a_shuffled_deal_is_fifteen_cards_one_to_the_crib_and_a_starter() -> None:
    game = Game.new(seed=11, seats=3, first_dealer=2)
    dealt = [card for seat in range(3) for card in game.hand(seat)]
    assert len(dealt) == len(set(dealt)) == 15
    record = game.record()
    assert len(record["deals"][0]["from_pack"]) == 1
    assert record["deals"][0]["from_pack"][0] not in map(str, dealt)


def test_three_each_lays_away_one_card_only() -> None:
    game = stacked(THREE, "AC", from_pack="6H")
    with pytest.raises(IllegalPlayError) as refused:
        game.discard(1, parse_cards("KS 9C"))
    assert refused.value.reason is Refusal.NOT_ONE_CARD
    game.discard(1, parse_cards("4H"))
    with pytest.raises(IllegalPlayError) as again:
        game.discard(1, parse_cards("KS"))
    assert again.value.reason is Refusal.ALREADY_DISCARDED
    assert game.phase is Phase.DISCARD, "the starter waits for all three"


def test_three_the_player_left_of_the_dealer_leads() -> None:
    game = three_seats()
    assert (game.phase, game.to_move, game.pone) == (Phase.PLAY, 1, 1)
    with pytest.raises(IllegalPlayError) as refused:
        game.play(2, Card.parse("QH"))
    assert refused.value.reason is Refusal.NOT_YOUR_TURN


# ------------------------------------------------------------- three: the play


def test_three_when_two_cannot_go_the_third_plays_on_and_pegs_the_go() -> None:
    """When two cannot go, the third plays on and pegs the go; the next count is led by
    the player to the left of whoever laid the last card (docs/rules.md §7.1)."""
    game = three_seats()
    assert trace(lay(game, "KS QH 8S 2S")) == [
        "play 1 KS 10 0",
        "play 2 QH 20 0",
        "play 0 8S 28 0",
        "go 1",  # 9C 6C 5C: each would pass 31
        "go 2",  # JH 8H 7C
        "play 0 2S 30 0",  # the third plays on while they can ...
        "last 0 1",  # ... and pegs the go
        "reset",
    ]
    assert game.to_move == 1, "seat 1 sits left of seat 0, who laid the last card"
    assert game.scores == (1, 0, 0)


def test_three_the_third_who_reaches_31_pegs_two_and_no_go() -> None:
    hands = ("8S 2S AS 9D 3H", "KS 9C 6C 5C 4H", "QH JH 8H 7C 5H")
    game = stacked(hands, "AC", from_pack="6H")
    lay_away(game, *THREE_AWAY)
    assert trace(lay(game, "KS QH 8S 2S AS")) == [
        "play 1 KS 10 0",
        "play 2 QH 20 0",
        "play 0 8S 28 0",
        "go 1",
        "go 2",
        "play 0 2S 30 0",
        "play 0 AS 31 2",  # thirty-one for two, and no point more
        "reset",
    ]
    assert game.scores == (2, 0, 0)
    assert game.to_move == 1


def test_three_the_next_count_is_led_left_of_the_last_card_not_by_the_pone() -> None:
    game = three_seats()
    lay(game, "KS QH 8S 2S")  # seat 0 took the go; seat 1 leads again
    assert trace(lay(game, "9C JH TD")) == [
        "play 1 9C 9 0",
        "play 2 JH 19 0",
        "play 0 TD 29 3",  # 9-J-10: a run of three, in any order
        "go 1",
        "go 2",
        "last 0 1",
        "reset",
    ]
    assert game.to_move == 1
    assert trace(lay(game, "6C 8H 9D 5C")) == [
        "play 1 6C 6 0",
        "play 2 8H 14 0",
        "play 0 9D 23 0",
        "play 1 5C 28 0",
        "go 2",  # 7C would make 35
        "go 0",  # no cards left: go without being asked
        "last 1 1",
        "reset",
    ]
    assert game.to_move == 2, "left of seat 1, who laid the last card; not the pone"
    assert trace(lay(game, "7C")) == ["play 2 7C 7 0", "last 2 1"]


def test_three_a_seat_passed_over_says_go_once_a_count() -> None:
    game = three_seats()
    events = lay(game, THREE_PLAY)
    goes = [(e.player, e.count) for e in events if e.type is EventType.GO]
    assert goes == [(1, 28), (2, 28), (1, 29), (2, 29), (2, 28), (0, 28)]
    assert len([e for e in events if e.type is EventType.PLAY]) == 12


def test_three_scores_are_three_and_each_plays_alone() -> None:
    game = three_seats()
    lay(game, "KS QH 8S 2S 9C JH TD")
    assert game.scores == (5, 0, 0)
    assert [game.score_of(seat) for seat in range(3)] == [5, 0, 0]
    assert [game.side_of(seat) for seat in range(3)] == [0, 1, 2]


# ------------------------------------------------------------- three: the show


def test_three_the_show_goes_from_the_dealers_left_the_dealer_last_then_the_crib() -> None:
    game = three_seats()
    events = lay(game, THREE_PLAY)
    shows = [(e.player, e.what, e.points) for e in events if e.type is EventType.SHOW]
    assert shows == [
        (1, "hand", 6),  # KS 9C 6C 5C + AC: fifteens K-5, 9-6, 9-5-A
        (2, "hand", 2),  # QH JH 8H 7C + AC: fifteen 8-7
        (0, "hand", 3),  # 8S 2S TD 9D + AC: the run 8-9-10
        (0, "crib", 8),  # 6H 4H 5H 3H + AC: the run 3-4-5-6, fifteens 6-5-4, 6-5-3-A
    ]
    assert game.scores == (5 + 3 + 8, 1 + 6, 1 + 2)
    assert (game.deal_number, game.dealer, game.to_move) == (2, 1, 2)


def test_three_the_crib_scores_a_flush_only_with_all_five() -> None:
    hands = ("8S 2S TD 9D 3H", "KS 9C 6C 5C 4H", "QH JH 8H 7C TH")
    flush = stacked(hands, "AH", from_pack="6H")
    lay_away(flush, "3H", "4H", "TH")
    lay(flush, THREE_PLAY)
    crib = next(e for e in flush.events if e.what == "crib")
    assert crib.cards == tuple(parse_cards("6H 4H TH 3H"))
    assert [(i.kind, i.points) for i in crib.items if i.kind == "flush"] == [("flush", 5)]
    plain = stacked(hands, "AC", from_pack="6H")
    lay_away(plain, "3H", "4H", "TH")
    lay(plain, THREE_PLAY)
    four_hearts = next(e for e in plain.events if e.what == "crib")
    assert "flush" not in [item.kind for item in four_hearts.items]
    assert four_hearts.points is not None
    assert crib.points == four_hearts.points + 5


def test_three_the_deal_passes_clockwise() -> None:
    game = Game.new(seed=5, seats=3, first_dealer=1)
    dealers: list[int] = []
    while game.phase is not Phase.DONE and len(dealers) < 5:
        dealers.append(game.dealer)
        number = game.deal_number
        while game.phase in (Phase.DISCARD, Phase.PLAY) and game.deal_number == number:
            seat = game.to_move
            assert seat is not None
            if game.phase is Phase.DISCARD:
                game.discard(seat, game.legal_discards(seat)[0])
            else:
                game.play(seat, game.legal_plays(seat)[0])
    assert dealers[:4] == [1, 2, 0, 1]


# ------------------------------------------------------------------- four


FOUR = ("9S 8D 4C 7H 5D", "KS 2H 3C QC AD", "QH 6S 6D JC 5S", "8C 9C TH TS 4S")
FOUR_AWAY = ("5D", "AD", "5S", "4S")
FOUR_PLAY = "KS QH TH 7H 3C 6S 9C 4C 2H 6D 8C 8D 9S QC JC TS"


def four_seats(**options: object) -> Game:
    game = stacked(FOUR, "2C", **options)  # type: ignore[arg-type]
    lay_away(game, *FOUR_AWAY)
    return game


def test_four_five_each_and_one_each_to_the_dealers_crib() -> None:
    game = stacked(FOUR, "2C")
    assert [len(game.hand(seat)) for seat in range(4)] == [5, 5, 5, 5]
    assert game.record()["deals"][0].get("from_pack") is None
    lay_away(game, *FOUR_AWAY)
    assert game.crib == tuple(parse_cards("AD 5S 4S 5D"))
    assert (game.to_move, game.pone) == (1, 1), "the dealer's left leads"


def test_four_partners_sit_opposite_and_share_one_score() -> None:
    game = four_seats()
    assert [game.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    lay(game, "KS QH TH 7H 3C 6S 9C 4C 2H")  # seat 3's go and seat 1's 31: side 1
    assert trace(lay(game, "6D 8C 8D")) == [
        "play 2 6D 6 0",
        "play 3 8C 14 0",
        "play 0 8D 22 2",  # seat 0 pairs the 8 of seat 3, an opponent
        "go 1",
        "go 2",
        "go 3",
    ]
    assert game.scores == (2, 3)
    assert [game.score_of(seat) for seat in range(4)] == [2, 3, 2, 3]
    assert game.events[-1].scores == (2, 3)


def test_four_when_three_cannot_go_the_fourth_pegs_the_go() -> None:
    """When three cannot go, the fourth pegs the go (docs/rules.md §7.2)."""
    game = four_seats()
    assert trace(lay(game, "KS QH TH")) == [
        "play 1 KS 10 0",
        "play 2 QH 20 0",
        "play 3 TH 30 0",
        "go 0",  # 9S 8D 4C 7H
        "go 1",  # 2H 3C QC: the 2H would make 32
        "go 2",  # 6S 6D JC
        "last 3 1",  # the fourth takes the go for the partnership of seats 1 and 3
        "reset",
    ]
    assert game.scores == (0, 1)
    assert game.score_of(1) == game.score_of(3) == 1
    assert game.to_move == 0, "the seat left of the last card leads the next count"


def test_four_a_partner_lays_on_the_partners_card_and_pegs_for_both() -> None:
    game = four_seats()
    lay(game, "KS QH TH")  # the go above: seat 0 leads
    assert trace(lay(game, "7H 3C 6S")) == [
        "play 0 7H 7 0",
        "play 1 3C 10 0",
        "play 2 6S 16 0",
    ]
    assert trace(lay(game, "9C")) == ["play 3 9C 25 0"]
    assert trace(lay(game, "4C 2H 6D")) == [
        "play 0 4C 29 0",
        "play 1 2H 31 2",
        "reset",
        "play 2 6D 6 0",
    ]
    assert game.scores == (0, 3)


def test_four_the_show_from_the_dealers_left_the_dealer_last_then_the_crib() -> None:
    game = four_seats()
    events = lay(game, FOUR_PLAY)
    shows = [(e.player, e.what) for e in events if e.type is EventType.SHOW]
    assert shows == [(1, "hand"), (2, "hand"), (3, "hand"), (0, "hand"), (0, "crib")]
    assert game.dealer == 1, "the deal passes to the left"
    assert game.to_move == 2, "the new dealer's left lays away first"


def test_four_a_partnership_wins_the_moment_it_reaches_121_in_the_play() -> None:
    game = four_seats(scores=(100, 120))
    events = lay(game, "KS QH TH")
    assert trace(events, ("play", "go", "last", "win")) == [
        "play 1 KS 10 0",
        "play 2 QH 20 0",
        "play 3 TH 30 0",
        "go 0",
        "go 1",
        "go 2",
        "last 3 1",
        "win 3",
    ]
    assert (game.phase, game.winner, game.scores) == (Phase.DONE, 1, (100, 121))
    assert game.to_move is None
    assert game.record()["winner"] == 1
    with pytest.raises(IllegalPlayError) as refused:
        game.play(0, Card.parse("7H"))
    assert refused.value.reason is Refusal.GAME_OVER


def test_four_a_partnership_wins_in_the_show_before_the_others_count() -> None:
    """Side 1 pegs 7 in the play (111) and its seat 1 shows first: 10 takes it to 121,
    and side 0 (114 after the play, and 14 more in its hands and crib) never counts."""
    game = four_seats(scores=(110, 104))
    events = lay(game, FOUR_PLAY)
    assert trace(events, ("show", "win")) == ["show 1 hand 10", "win 1"]
    assert (game.winner, game.scores, game.phase) == (1, (114, 121), Phase.DONE)


def test_four_his_heels_go_to_the_dealers_partnership() -> None:
    game = stacked(FOUR, "JD", dealer=2, scores=(10, 10))
    for seat, card in enumerate(FOUR_AWAY):
        game.discard(seat, [Card.parse(card)])
    heels = [e for e in game.events if e.type is EventType.HEELS]
    assert [(e.player, e.points) for e in heels] == [(2, 2)]
    assert game.scores == (12, 10)
    assert game.to_move == 3


def test_four_one_of_each_partnership_cuts_for_the_first_deal() -> None:
    """One player of each partnership cuts for the first deal; the lower deals
    (docs/rules.md §7.3)."""
    for seed in range(30):
        game = Game.new(seed=seed, seats=4)
        cuts = [e for e in game.events if e.type is EventType.CUT]
        assert all(len(e.cards) == 2 for e in cuts)
        low = min(cuts[-1].cards, key=lambda card: card.rank)
        assert game.dealer == cuts[-1].cards.index(low) == cuts[-1].player
        assert game.dealer in (0, 1)


def test_three_all_cut_and_the_lowest_deals_ties_for_lowest_cut_again() -> None:
    tied = next(seed for seed in range(500) if len(cut_for_deal(seed, 3)) > 1)
    game = Game.new(seed=tied, seats=3)
    cuts = [e for e in game.events if e.type is EventType.CUT]
    assert len(cuts) > 1
    assert all(len(e.cards) == 3 for e in cuts)
    first = sorted(card.rank for card in cuts[0].cards)
    assert first[0] == first[1]
    assert cuts[0].player is None
    ranks = [card.rank for card in cuts[-1].cards]
    assert ranks[game.dealer] < min(r for at, r in enumerate(ranks) if at != game.dealer)


# -------------------------------------------------------------- game lengths


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("target", [61, 91])
def test_a_shorter_game_ends_at_its_target_and_knows_no_skunk(seats: int, target: int) -> None:
    game = Game.new(seed=target + seats, seats=seats, target=target)
    while game.phase is not Phase.DONE:
        seat = game.to_move
        assert seat is not None
        if game.phase is Phase.DISCARD:
            game.discard(seat, game.legal_discards(seat)[0])
        else:
            game.play(seat, game.legal_plays(seat)[0])
    assert game.winner is not None
    assert game.scores[game.winner] == target
    assert max(s for side, s in enumerate(game.scores) if side != game.winner) < target
    assert game.events[-1].skunk is Skunk.NONE
    assert game.record()["skunk"] == "none"
    assert game.record()["target"] == target


def test_a_two_player_game_to_61_is_no_skunk_however_far_behind() -> None:
    hands = ("5H 5C 5S JD 4C 6D", "2C 3D 7H 9S KC QD")
    deal = (tuple(parse_cards(h) for h in hands), Card.parse("5D"))
    game = Game.new(seed=1, first_dealer=1, stacked=[deal], scores=(50, 0), target=61)
    game.discard(0, parse_cards("4C 6D"))
    game.discard(1, parse_cards("KC QD"))
    lay(game, "5H 2C 5C 3D 5S 7H JD 9S")
    assert (game.winner, game.scores[0]) == (0, 61)
    assert game.events[-1].skunk is Skunk.NONE
    same_in_121 = Game.new(seed=1, first_dealer=1, stacked=[deal], scores=(110, 0))
    same_in_121.discard(0, parse_cards("4C 6D"))
    same_in_121.discard(1, parse_cards("KC QD"))
    lay(same_in_121, "5H 2C 5C 3D 5S 7H JD 9S")
    assert same_in_121.events[-1].skunk is Skunk.DOUBLE


def test_three_at_121_the_skunk_is_the_best_placed_losers() -> None:
    game = three_seats(scores=(120, 95, 40))
    lay(game, "KS QH 8S 2S")  # seat 0 pegs the go: 121
    assert (game.winner, game.events[-1].skunk) == (0, Skunk.NONE)
    skunked = three_seats(scores=(120, 90, 40))
    lay(skunked, "KS QH 8S 2S")
    assert skunked.events[-1].skunk is Skunk.SKUNK


def test_pegging_out_with_a_go_at_120_wins() -> None:
    """Limits on pegging out are not played (docs/rules.md §5): the go wins."""
    game = three_seats(scores=(120, 0, 0))
    lay(game, "KS QH 8S 2S")
    assert (game.winner, game.scores) == (0, (121, 0, 0))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seats": 5}, "2, 3 or 4 seats"),
        ({"seats": 3, "target": 100}, "61, 91 or 121"),
        ({"seats": 3, "muggins": True}, "two players only"),
        ({"seats": 3, "players": ("a", "b")}, "names 3 players"),
        ({"seats": 4, "scores": (0, 0, 0, 0)}, "2 scores"),
        ({"seats": 3, "scores": (0, 61, 0), "target": 61}, "0 to 60"),
        ({"seats": 3, "first_dealer": 3}, "0, 1, 2 or None"),
    ],
)
def test_settings_no_table_has_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game.new(seed=1, **options)  # type: ignore[arg-type]


# ------------------------------------------------------------- the record


@pytest.mark.parametrize("seats", [3, 4])
def test_a_record_carries_the_seats_and_replays(seats: int) -> None:
    game = three_seats() if seats == 3 else four_seats(target=91)
    lay(game, "KS QH")
    record = json.loads(json.dumps(game.record()))
    assert record["seats"] == seats
    assert ("target" in record) == (seats == 4)
    replayed = game_from_record(record)
    assert replayed.record() == game.record()
    after_queen = 0 if seats == 3 else 3
    assert (replayed.scores, replayed.to_move, replayed.count) == (game.scores, after_queen, 20)
    saved = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert saved.to_json() == game.to_json()
    assert saved.to_json()["seats"] == seats


def test_a_record_whose_go_went_to_the_wrong_seat_is_refused() -> None:
    game = three_seats()
    lay(game, "KS QH 8S 2S")
    record = json.loads(json.dumps(game.record()))
    last = next(e for e in record["deals"][0]["events"] if e["type"] == "last")
    last["player"] = 2
    with pytest.raises(RecordError, match="the record says"):
        game_from_record(record)


def test_a_three_seat_record_without_its_pack_card_is_refused() -> None:
    record = three_seats().record()
    del record["deals"][0]["from_pack"]
    with pytest.raises(RecordError, match="from the pack"):
        game_from_record(record)


def test_his_heels_win_however_few_points_were_wanted() -> None:
    """No heels when five or fewer are wanted: not played (docs/rules.md §5). The
    dealer's partnership on 119 turns a jack and wins before the play."""
    game = stacked(FOUR, "JD", dealer=2, scores=(119, 50))
    lay_away(game, *FOUR_AWAY)
    assert trace(game.events, ("heels", "play", "win")) == ["heels 2 2", "win 2"]
    assert (game.winner, game.scores, game.phase) == (0, (121, 50), Phase.DONE)
