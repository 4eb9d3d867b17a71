from django.urls import path

from accounts import api

urlpatterns = [
    path("register/", api.RegisterView.as_view(), name="api-auth-register"),
    path("login/", api.LoginView.as_view(), name="api-auth-login"),
    path("logout/", api.LogoutView.as_view(), name="api-auth-logout"),
    path("token/", api.TokenView.as_view(), name="api-auth-token"),
    path("me/", api.MeView.as_view(), name="api-auth-me"),
]
