"""Contains all the data models used in inputs/outputs"""

from .all_rates import AllRates
from .artifacts import Artifacts
from .asset import Asset
from .asset_content_type import AssetContentType
from .asset_create import AssetCreate
from .asset_create_slot import AssetCreateSlot
from .asset_object import AssetObject
from .asset_slot import AssetSlot
from .attempt import Attempt
from .attempt_error import AttemptError
from .attempt_error_code import AttemptErrorCode
from .balance_transaction import BalanceTransaction
from .balance_transaction_create import BalanceTransactionCreate
from .balance_transaction_create_notification_mode import (
    BalanceTransactionCreateNotificationMode,
)
from .balance_transaction_object import BalanceTransactionObject
from .balance_transaction_result import BalanceTransactionResult
from .balance_transaction_result_object import BalanceTransactionResultObject
from .balance_transaction_result_source import BalanceTransactionResultSource
from .balance_transaction_source import BalanceTransactionSource
from .bulk_job import BulkJob
from .bulk_job_counts import BulkJobCounts
from .bulk_job_create import BulkJobCreate
from .bulk_job_create_items_item import BulkJobCreateItemsItem
from .bulk_job_create_notification_mode import BulkJobCreateNotificationMode
from .bulk_job_create_operation import BulkJobCreateOperation
from .bulk_job_environment import BulkJobEnvironment
from .bulk_job_notification_mode_type_0 import BulkJobNotificationModeType0
from .bulk_job_object import BulkJobObject
from .bulk_job_operation import BulkJobOperation
from .bulk_job_result import BulkJobResult
from .bulk_job_result_status import BulkJobResultStatus
from .bulk_job_status import BulkJobStatus
from .by_platform import ByPlatform
from .changes import Changes
from .counts_by_platform import CountsByPlatform
from .definition import Definition
from .definition_barcode import DefinitionBarcode
from .definition_barcode_format import DefinitionBarcodeFormat
from .definition_colors import DefinitionColors
from .definition_config import DefinitionConfig
from .definition_config_fields import DefinitionConfigFields
from .definition_enrollment import DefinitionEnrollment
from .definition_enrollment_fields_item import DefinitionEnrollmentFieldsItem
from .definition_event import DefinitionEvent
from .definition_event_category import DefinitionEventCategory
from .definition_event_seat_fields import DefinitionEventSeatFields
from .definition_event_venue import DefinitionEventVenue
from .definition_event_venue_location import DefinitionEventVenueLocation
from .definition_gift_card import DefinitionGiftCard
from .definition_gift_card_currency import DefinitionGiftCardCurrency
from .definition_images import DefinitionImages
from .definition_locations_item import DefinitionLocationsItem
from .definition_loyalty import DefinitionLoyalty
from .definition_offer import DefinitionOffer
from .definition_platforms import DefinitionPlatforms
from .definition_redemption import DefinitionRedemption
from .definition_redemption_mode import DefinitionRedemptionMode
from .definition_translations import DefinitionTranslations
from .definition_type import DefinitionType
from .delivery import Delivery
from .delivery_apple import DeliveryApple
from .delivery_apple_error_type_0 import DeliveryAppleErrorType0
from .delivery_apple_status import DeliveryAppleStatus
from .delivery_google import DeliveryGoogle
from .delivery_google_error_type_0 import DeliveryGoogleErrorType0
from .delivery_google_status import DeliveryGoogleStatus
from .download_link import DownloadLink
from .download_link_create import DownloadLinkCreate
from .download_link_object import DownloadLinkObject
from .email import Email
from .email_error_type_0 import EmailErrorType0
from .email_locale import EmailLocale
from .email_object import EmailObject
from .email_status import EmailStatus
from .endpoint_create import EndpointCreate
from .endpoint_update import EndpointUpdate
from .endpoint_update_status import EndpointUpdateStatus
from .error import Error
from .error_detail import ErrorDetail
from .error_detail_type import ErrorDetailType
from .event import Event
from .event_data import EventData
from .event_environment import EventEnvironment
from .event_object import EventObject
from .event_type import EventType
from .field import Field
from .field_binding import FieldBinding
from .field_change import FieldChange
from .field_format import FieldFormat
from .get_insights_group_by import GetInsightsGroupBy
from .get_insights_platform import GetInsightsPlatform
from .insight_wallet_counts import InsightWalletCounts
from .insights import Insights
from .insights_group_by import InsightsGroupBy
from .insights_object import InsightsObject
from .insights_platform_type_0 import InsightsPlatformType0
from .installations import Installations
from .installations_apple_item import InstallationsAppleItem
from .installations_google_type_0 import InstallationsGoogleType0
from .issue import Issue
from .list_balance_transactions_response_200 import ListBalanceTransactionsResponse200
from .list_bulk_job_results_response_200 import ListBulkJobResultsResponse200
from .list_bulk_job_results_status import ListBulkJobResultsStatus
from .list_bulk_jobs_response_200 import ListBulkJobsResponse200
from .list_bulk_jobs_status import ListBulkJobsStatus
from .list_download_links_response_200 import ListDownloadLinksResponse200
from .list_events_response_200 import ListEventsResponse200
from .list_events_type import ListEventsType
from .list_messages_response_200 import ListMessagesResponse200
from .list_messages_status import ListMessagesStatus
from .list_pass_emails_response_200 import ListPassEmailsResponse200
from .list_pass_redemptions_response_200 import ListPassRedemptionsResponse200
from .list_pass_updates_response_200 import ListPassUpdatesResponse200
from .list_passes_response_200 import ListPassesResponse200
from .list_passes_source import ListPassesSource
from .list_passes_status import ListPassesStatus
from .list_templates_response_200 import ListTemplatesResponse200
from .list_templates_type import ListTemplatesType
from .list_webhook_deliveries_response_200 import ListWebhookDeliveriesResponse200
from .list_webhook_deliveries_status import ListWebhookDeliveriesStatus
from .list_webhook_endpoints_response_200 import ListWebhookEndpointsResponse200
from .me import Me
from .me_environment import MeEnvironment
from .message import Message
from .message_audience import MessageAudience
from .message_create import MessageCreate
from .message_delivery import MessageDelivery
from .message_object import MessageObject
from .message_source import MessageSource
from .message_status import MessageStatus
from .message_wallet_delivery import MessageWalletDelivery
from .message_wallet_delivery_reasons import MessageWalletDeliveryReasons
from .pass_ import Pass
from .pass_create import PassCreate
from .pass_create_field_values import PassCreateFieldValues
from .pass_editable_fields_item import PassEditableFieldsItem
from .pass_environment import PassEnvironment
from .pass_export import PassExport
from .pass_export_activity_item import PassExportActivityItem
from .pass_export_object import PassExportObject
from .pass_field_values import PassFieldValues
from .pass_image_body import PassImageBody
from .pass_images import PassImages
from .pass_object import PassObject
from .pass_platforms import PassPlatforms
from .pass_preview import PassPreview
from .pass_send import PassSend
from .pass_send_locale import PassSendLocale
from .pass_source import PassSource
from .pass_status import PassStatus
from .pass_update import PassUpdate
from .pass_update_body import PassUpdateBody
from .pass_update_body_field_values import PassUpdateBodyFieldValues
from .pass_update_body_notification_mode import PassUpdateBodyNotificationMode
from .pass_update_kind import PassUpdateKind
from .pass_update_notification_mode import PassUpdateNotificationMode
from .pass_update_object import PassUpdateObject
from .pass_with_update import PassWithUpdate
from .permissions import Permissions
from .permissions_assets import PermissionsAssets
from .permissions_bulk_jobs import PermissionsBulkJobs
from .permissions_download_links import PermissionsDownloadLinks
from .permissions_events import PermissionsEvents
from .permissions_insights import PermissionsInsights
from .permissions_passes import PermissionsPasses
from .permissions_redemptions import PermissionsRedemptions
from .permissions_templates import PermissionsTemplates
from .permissions_webhooks import PermissionsWebhooks
from .platforms import Platforms
from .rates import Rates
from .redemption import Redemption
from .redemption_create import RedemptionCreate
from .redemption_object import RedemptionObject
from .redemption_source import RedemptionSource
from .rotate_secret import RotateSecret
from .scan_create import ScanCreate
from .scan_result import ScanResult
from .scan_result_object import ScanResultObject
from .scan_result_source import ScanResultSource
from .scanned_by import ScannedBy
from .scanned_by_type import ScannedByType
from .series_item import SeriesItem
from .series_item_platform import SeriesItemPlatform
from .sign_up import SignUp
from .signing import Signing
from .template import Template
from .template_create import TemplateCreate
from .template_create_type import TemplateCreateType
from .template_duplicate import TemplateDuplicate
from .template_object import TemplateObject
from .template_settings import TemplateSettings
from .template_settings_update import TemplateSettingsUpdate
from .template_type import TemplateType
from .template_update import TemplateUpdate
from .tier import Tier
from .translation import Translation
from .translation_event import TranslationEvent
from .translation_event_venue import TranslationEventVenue
from .translation_fields import TranslationFields
from .translation_fields_additional_property import TranslationFieldsAdditionalProperty
from .wallet_rates import WalletRates
from .wallet_state import WalletState
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_event_type import WebhookDeliveryEventType
from .webhook_delivery_object import WebhookDeliveryObject
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_disabled_reason_type_0 import WebhookEndpointDisabledReasonType0
from .webhook_endpoint_environment import WebhookEndpointEnvironment
from .webhook_endpoint_object import WebhookEndpointObject
from .webhook_endpoint_status import WebhookEndpointStatus

__all__ = (
    "AllRates",
    "Artifacts",
    "Asset",
    "AssetContentType",
    "AssetCreate",
    "AssetCreateSlot",
    "AssetObject",
    "AssetSlot",
    "Attempt",
    "AttemptError",
    "AttemptErrorCode",
    "BalanceTransaction",
    "BalanceTransactionCreate",
    "BalanceTransactionCreateNotificationMode",
    "BalanceTransactionObject",
    "BalanceTransactionResult",
    "BalanceTransactionResultObject",
    "BalanceTransactionResultSource",
    "BalanceTransactionSource",
    "BulkJob",
    "BulkJobCounts",
    "BulkJobCreate",
    "BulkJobCreateItemsItem",
    "BulkJobCreateNotificationMode",
    "BulkJobCreateOperation",
    "BulkJobEnvironment",
    "BulkJobNotificationModeType0",
    "BulkJobObject",
    "BulkJobOperation",
    "BulkJobResult",
    "BulkJobResultStatus",
    "BulkJobStatus",
    "ByPlatform",
    "Changes",
    "CountsByPlatform",
    "Definition",
    "DefinitionBarcode",
    "DefinitionBarcodeFormat",
    "DefinitionColors",
    "DefinitionConfig",
    "DefinitionConfigFields",
    "DefinitionEnrollment",
    "DefinitionEnrollmentFieldsItem",
    "DefinitionEvent",
    "DefinitionEventCategory",
    "DefinitionEventSeatFields",
    "DefinitionEventVenue",
    "DefinitionEventVenueLocation",
    "DefinitionGiftCard",
    "DefinitionGiftCardCurrency",
    "DefinitionImages",
    "DefinitionLocationsItem",
    "DefinitionLoyalty",
    "DefinitionOffer",
    "DefinitionPlatforms",
    "DefinitionRedemption",
    "DefinitionRedemptionMode",
    "DefinitionTranslations",
    "DefinitionType",
    "Delivery",
    "DeliveryApple",
    "DeliveryAppleErrorType0",
    "DeliveryAppleStatus",
    "DeliveryGoogle",
    "DeliveryGoogleErrorType0",
    "DeliveryGoogleStatus",
    "DownloadLink",
    "DownloadLinkCreate",
    "DownloadLinkObject",
    "Email",
    "EmailErrorType0",
    "EmailLocale",
    "EmailObject",
    "EmailStatus",
    "EndpointCreate",
    "EndpointUpdate",
    "EndpointUpdateStatus",
    "Error",
    "ErrorDetail",
    "ErrorDetailType",
    "Event",
    "EventData",
    "EventEnvironment",
    "EventObject",
    "EventType",
    "Field",
    "FieldBinding",
    "FieldChange",
    "FieldFormat",
    "GetInsightsGroupBy",
    "GetInsightsPlatform",
    "InsightWalletCounts",
    "Insights",
    "InsightsGroupBy",
    "InsightsObject",
    "InsightsPlatformType0",
    "Installations",
    "InstallationsAppleItem",
    "InstallationsGoogleType0",
    "Issue",
    "ListBalanceTransactionsResponse200",
    "ListBulkJobResultsResponse200",
    "ListBulkJobResultsStatus",
    "ListBulkJobsResponse200",
    "ListBulkJobsStatus",
    "ListDownloadLinksResponse200",
    "ListEventsResponse200",
    "ListEventsType",
    "ListMessagesResponse200",
    "ListMessagesStatus",
    "ListPassEmailsResponse200",
    "ListPassRedemptionsResponse200",
    "ListPassUpdatesResponse200",
    "ListPassesResponse200",
    "ListPassesSource",
    "ListPassesStatus",
    "ListTemplatesResponse200",
    "ListTemplatesType",
    "ListWebhookDeliveriesResponse200",
    "ListWebhookDeliveriesStatus",
    "ListWebhookEndpointsResponse200",
    "Me",
    "MeEnvironment",
    "Message",
    "MessageAudience",
    "MessageCreate",
    "MessageDelivery",
    "MessageObject",
    "MessageSource",
    "MessageStatus",
    "MessageWalletDelivery",
    "MessageWalletDeliveryReasons",
    "Pass",
    "PassCreate",
    "PassCreateFieldValues",
    "PassEditableFieldsItem",
    "PassEnvironment",
    "PassExport",
    "PassExportActivityItem",
    "PassExportObject",
    "PassFieldValues",
    "PassImageBody",
    "PassImages",
    "PassObject",
    "PassPlatforms",
    "PassPreview",
    "PassSend",
    "PassSendLocale",
    "PassSource",
    "PassStatus",
    "PassUpdate",
    "PassUpdateBody",
    "PassUpdateBodyFieldValues",
    "PassUpdateBodyNotificationMode",
    "PassUpdateKind",
    "PassUpdateNotificationMode",
    "PassUpdateObject",
    "PassWithUpdate",
    "Permissions",
    "PermissionsAssets",
    "PermissionsBulkJobs",
    "PermissionsDownloadLinks",
    "PermissionsEvents",
    "PermissionsInsights",
    "PermissionsPasses",
    "PermissionsRedemptions",
    "PermissionsTemplates",
    "PermissionsWebhooks",
    "Platforms",
    "Rates",
    "Redemption",
    "RedemptionCreate",
    "RedemptionObject",
    "RedemptionSource",
    "RotateSecret",
    "ScanCreate",
    "ScanResult",
    "ScanResultObject",
    "ScanResultSource",
    "ScannedBy",
    "ScannedByType",
    "SeriesItem",
    "SeriesItemPlatform",
    "SignUp",
    "Signing",
    "Template",
    "TemplateCreate",
    "TemplateCreateType",
    "TemplateDuplicate",
    "TemplateObject",
    "TemplateSettings",
    "TemplateSettingsUpdate",
    "TemplateType",
    "TemplateUpdate",
    "Tier",
    "Translation",
    "TranslationEvent",
    "TranslationEventVenue",
    "TranslationFields",
    "TranslationFieldsAdditionalProperty",
    "WalletRates",
    "WalletState",
    "WebhookDelivery",
    "WebhookDeliveryEventType",
    "WebhookDeliveryObject",
    "WebhookDeliveryStatus",
    "WebhookEndpoint",
    "WebhookEndpointDisabledReasonType0",
    "WebhookEndpointEnvironment",
    "WebhookEndpointObject",
    "WebhookEndpointStatus",
)
