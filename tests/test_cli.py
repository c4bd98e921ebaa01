"""app/cli.py: the simulate command and the --rules option it shares with tournament."""

from __future__ import annotations

import pytest

from app.cli import UsageError, main, rules_option


def test_simulate_reports_conserved_cards(capsys) -> None:
    assert (
        main(
            [
                "simulate",
                "--players",
                "4",
                "--deals",
                "3",
                "--seed",
                "5",
                "--rules",
                '{"nordic": true}',
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("3 deals, ") and "all cards conserved, scores add up" in out


@pytest.mark.parametrize(
    "rules, players, message",
    [
        ('{"partnership": true}', 3, "partnership (V1) is for exactly 4 players"),
        ('{"single_pack": true}', 3, "single pack (V2) is for exactly 2 players"),
        ('{"nordc": true}', 4, "nordc"),
        ("{nordic", 4, "Expecting property name"),
    ],
)
def test_bad_rules_are_one_line_and_exit_2(capsys, rules: str, players: int, message: str) -> None:
    with pytest.raises(UsageError, match="bad --rules"):
        rules_option(rules, players)
    assert main(["simulate", "--players", str(players), "--deals", "1", "--rules", rules]) == 2
    err = capsys.readouterr().err
    assert err.startswith("krypkasino: bad --rules: ") and message in err
    assert err.count("\n") == 1


def test_no_rules_means_the_standard_game() -> None:
    rules = rules_option(None, 4)
    assert not rules.partnership and not rules.nordic and rules.match_deals is None
