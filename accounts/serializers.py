"""The accounts API's request and response bodies."""

from rest_framework import serializers

from accounts.models import User


class UserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ["id", "username", "display_name", "can_organize"]
        read_only_fields = fields


class RegisterSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, trim_whitespace=True)
    password = serializers.CharField(max_length=4096, write_only=True, trim_whitespace=False)
    display_name = serializers.CharField(
        max_length=64, required=False, allow_blank=True, default=""
    )


class CredentialsSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, write_only=True, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")


class UserTokenSerializer(serializers.Serializer):
    user = UserSerializer()
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")


class KeptSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The game's code.")
    reason = serializers.CharField(
        help_text="Why it stays the guest's: `seated_there`, the account sits at that table."
    )


class AbsorbedSerializer(serializers.Serializer):
    guest_id = serializers.IntegerField()
    kept = KeptSerializer(many=True, help_text="The guest's games that stay the guest's.")


class SignedInSerializer(UserTokenSerializer):
    guest = AbsorbedSerializer(
        allow_null=True,
        help_text="Signed in from a guest's session: the guest's games became this "
        "account's, but for those `kept`; null otherwise.",
    )
