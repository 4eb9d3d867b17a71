from games.read.selectors import rule_presets


def test_rule_presets_list_every_preset_with_sequences_for_three_to_six_players() -> None:
    presets = {summary.name: summary for summary in rule_presets()}

    assert list(presets) == ["romanian-standard", "championship", "online-room", "classic-app"]
    assert list(presets["championship"].sequences) == [3, 4, 5, 6]
    assert presets["classic-app"].sequences[4] == [
        1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1,
    ]  # fmt: skip
    assert (
        len(presets["romanian-standard"].sequences[6]) == 6 + 6 + 6 + 6 + 6
    )  # ones, 2..7, eights, 7..2, ones
