"""What OPTIONS answers on the API's routes (REST_FRAMEWORK's DEFAULT_METADATA_CLASS and
DEFAULT_CONTENT_NEGOTIATION_CLASS).

A module of its own: DRF imports it while it defines APIView, so it cannot import views."""

from rest_framework.metadata import BaseMetadata
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import JSONRenderer


class RouteMetadata(BaseMetadata):
    """A route's name and the media types it speaks; its methods are in the Allow header,
    and what each one takes and answers is in the OpenAPI schema.

    DRF's SimpleMetadata would describe the fields of the view's `serializer_class`, which
    these views do not have (each action validates with serializers of its own, see
    edge.api.valid): it failed with a 500 on every route that takes POST."""

    def determine_metadata(self, request, view) -> dict:
        return {
            "name": view.get_view_name(),
            "renders": [renderer.media_type for renderer in view.renderer_classes],
            "parses": [parser.media_type for parser in view.parser_classes],
        }


class OptionsInJson(DefaultContentNegotiation):
    """OPTIONS is answered in JSON, whatever the route's GET renders: the schema's YAML
    renderer would answer it in YAML, and the docs' HTML renderer failed with a 500 for
    want of a template."""

    def select_renderer(self, request, renderers, format_suffix=None):
        if request.method == "OPTIONS":
            return JSONRenderer(), JSONRenderer.media_type
        return super().select_renderer(request, renderers, format_suffix)
