from django.test import Client


def test_rules_page_shows_each_preset_with_its_deal_sequence(client: Client) -> None:
    response = client.get("/rules/")

    assert response.status_code == 200
    content = response.content.decode()
    for title in ("Romanian standard", "Championship", "Online room", "Classic app"):
        assert f"<h2>{title}</h2>" in content
    championship = content[content.index('id="championship"') : content.index('id="online-room"')]
    assert "1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 8 8 8 8 (32 deals)" in (
        championship
    )
    assert "+10 for 5 exact bids in a row" in content
    assert "-10 for 5 missed bids in a row (one-card deals not counted)" in content


def test_home_page_links_the_rule_presets(client: Client) -> None:
    assert 'href="/rules/"' in client.get("/").content.decode()
