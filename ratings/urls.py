from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("", views.rating_list_page, name="list"),
    path("pdf/", views.rating_list_pdf, name="pdf"),
]
