"""The pages and the REST API: views, serializers, forms, the page script's texts and the URLs."""
