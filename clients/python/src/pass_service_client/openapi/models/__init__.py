"""Contains all the data models used in inputs/outputs"""

from .asset import Asset
from .asset_content_type import AssetContentType
from .asset_create import AssetCreate
from .asset_create_slot import AssetCreateSlot
from .asset_object import AssetObject
from .asset_slot import AssetSlot
from .balance_transaction import BalanceTransaction
from .balance_transaction_create import BalanceTransactionCreate
from .balance_transaction_create_notification_mode import (
    BalanceTransactionCreateNotificationMode,
)
from .balance_transaction_object import BalanceTransactionObject
from .balance_transaction_result import BalanceTransactionResult
from .balance_transaction_result_object import BalanceTransactionResultObject
from .balance_transaction_result_pass import BalanceTransactionResultPass
from .balance_transaction_result_pass_artifacts import (
    BalanceTransactionResultPassArtifacts,
)
from .balance_transaction_result_pass_artifacts_apple import (
    BalanceTransactionResultPassArtifactsApple,
)
from .balance_transaction_result_pass_artifacts_google import (
    BalanceTransactionResultPassArtifactsGoogle,
)
from .balance_transaction_result_pass_editable_fields_item import (
    BalanceTransactionResultPassEditableFieldsItem,
)
from .balance_transaction_result_pass_environment import (
    BalanceTransactionResultPassEnvironment,
)
from .balance_transaction_result_pass_field_values import (
    BalanceTransactionResultPassFieldValues,
)
from .balance_transaction_result_pass_images import BalanceTransactionResultPassImages
from .balance_transaction_result_pass_last_email_type_0 import (
    BalanceTransactionResultPassLastEmailType0,
)
from .balance_transaction_result_pass_last_email_type_0_error_type_0 import (
    BalanceTransactionResultPassLastEmailType0ErrorType0,
)
from .balance_transaction_result_pass_last_email_type_0_locale import (
    BalanceTransactionResultPassLastEmailType0Locale,
)
from .balance_transaction_result_pass_last_email_type_0_object import (
    BalanceTransactionResultPassLastEmailType0Object,
)
from .balance_transaction_result_pass_last_email_type_0_status import (
    BalanceTransactionResultPassLastEmailType0Status,
)
from .balance_transaction_result_pass_object import BalanceTransactionResultPassObject
from .balance_transaction_result_pass_platforms import (
    BalanceTransactionResultPassPlatforms,
)
from .balance_transaction_result_pass_preview import BalanceTransactionResultPassPreview
from .balance_transaction_result_pass_signing import BalanceTransactionResultPassSigning
from .balance_transaction_result_pass_source import BalanceTransactionResultPassSource
from .balance_transaction_result_pass_status import BalanceTransactionResultPassStatus
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
from .error_detail_issues_item import ErrorDetailIssuesItem
from .error_detail_type import ErrorDetailType
from .error_error import ErrorError
from .error_error_issues_item import ErrorErrorIssuesItem
from .error_error_type import ErrorErrorType
from .event import Event
from .event_data import EventData
from .event_environment import EventEnvironment
from .event_object import EventObject
from .event_type import EventType
from .field import Field
from .field_binding import FieldBinding
from .field_format import FieldFormat
from .get_insights_group_by import GetInsightsGroupBy
from .get_insights_platform import GetInsightsPlatform
from .insights import Insights
from .insights_group_by import InsightsGroupBy
from .insights_object import InsightsObject
from .insights_platform_type_0 import InsightsPlatformType0
from .insights_rates import InsightsRates
from .insights_rates_by_platform import InsightsRatesByPlatform
from .insights_rates_by_platform_apple import InsightsRatesByPlatformApple
from .insights_rates_by_platform_google import InsightsRatesByPlatformGoogle
from .insights_series_item import InsightsSeriesItem
from .insights_series_item_by_platform import InsightsSeriesItemByPlatform
from .insights_series_item_by_platform_apple import InsightsSeriesItemByPlatformApple
from .insights_series_item_by_platform_google import InsightsSeriesItemByPlatformGoogle
from .insights_series_item_platform import InsightsSeriesItemPlatform
from .insights_totals import InsightsTotals
from .insights_totals_by_platform import InsightsTotalsByPlatform
from .insights_totals_by_platform_apple import InsightsTotalsByPlatformApple
from .insights_totals_by_platform_google import InsightsTotalsByPlatformGoogle
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
from .me_permissions_type_0 import MePermissionsType0
from .me_permissions_type_0_assets import MePermissionsType0Assets
from .me_permissions_type_0_bulk_jobs import MePermissionsType0BulkJobs
from .me_permissions_type_0_download_links import MePermissionsType0DownloadLinks
from .me_permissions_type_0_events import MePermissionsType0Events
from .me_permissions_type_0_insights import MePermissionsType0Insights
from .me_permissions_type_0_passes import MePermissionsType0Passes
from .me_permissions_type_0_redemptions import MePermissionsType0Redemptions
from .me_permissions_type_0_templates import MePermissionsType0Templates
from .me_permissions_type_0_webhooks import MePermissionsType0Webhooks
from .message import Message
from .message_audience import MessageAudience
from .message_create import MessageCreate
from .message_create_audience import MessageCreateAudience
from .message_delivery import MessageDelivery
from .message_delivery_apple import MessageDeliveryApple
from .message_delivery_apple_reasons import MessageDeliveryAppleReasons
from .message_delivery_google import MessageDeliveryGoogle
from .message_delivery_google_reasons import MessageDeliveryGoogleReasons
from .message_object import MessageObject
from .message_source import MessageSource
from .message_status import MessageStatus
from .pass_ import Pass
from .pass_artifacts import PassArtifacts
from .pass_artifacts_apple import PassArtifactsApple
from .pass_artifacts_google import PassArtifactsGoogle
from .pass_create import PassCreate
from .pass_create_field_values import PassCreateFieldValues
from .pass_create_platforms import PassCreatePlatforms
from .pass_editable_fields_item import PassEditableFieldsItem
from .pass_environment import PassEnvironment
from .pass_export import PassExport
from .pass_export_activity_item import PassExportActivityItem
from .pass_export_emails_item import PassExportEmailsItem
from .pass_export_emails_item_error_type_0 import PassExportEmailsItemErrorType0
from .pass_export_emails_item_locale import PassExportEmailsItemLocale
from .pass_export_emails_item_object import PassExportEmailsItemObject
from .pass_export_emails_item_status import PassExportEmailsItemStatus
from .pass_export_events_item import PassExportEventsItem
from .pass_export_events_item_data import PassExportEventsItemData
from .pass_export_events_item_environment import PassExportEventsItemEnvironment
from .pass_export_events_item_object import PassExportEventsItemObject
from .pass_export_events_item_type import PassExportEventsItemType
from .pass_export_installations import PassExportInstallations
from .pass_export_installations_apple_item import PassExportInstallationsAppleItem
from .pass_export_installations_google_type_0 import PassExportInstallationsGoogleType0
from .pass_export_object import PassExportObject
from .pass_export_redemptions_item import PassExportRedemptionsItem
from .pass_export_redemptions_item_object import PassExportRedemptionsItemObject
from .pass_export_redemptions_item_scanned_by_type_0 import (
    PassExportRedemptionsItemScannedByType0,
)
from .pass_export_redemptions_item_scanned_by_type_0_type import (
    PassExportRedemptionsItemScannedByType0Type,
)
from .pass_export_redemptions_item_source import PassExportRedemptionsItemSource
from .pass_export_updates_item import PassExportUpdatesItem
from .pass_export_updates_item_changes import PassExportUpdatesItemChanges
from .pass_export_updates_item_changes_fields_item import (
    PassExportUpdatesItemChangesFieldsItem,
)
from .pass_export_updates_item_delivery import PassExportUpdatesItemDelivery
from .pass_export_updates_item_delivery_apple import PassExportUpdatesItemDeliveryApple
from .pass_export_updates_item_delivery_apple_error_type_0 import (
    PassExportUpdatesItemDeliveryAppleErrorType0,
)
from .pass_export_updates_item_delivery_apple_status import (
    PassExportUpdatesItemDeliveryAppleStatus,
)
from .pass_export_updates_item_delivery_google import (
    PassExportUpdatesItemDeliveryGoogle,
)
from .pass_export_updates_item_delivery_google_error_type_0 import (
    PassExportUpdatesItemDeliveryGoogleErrorType0,
)
from .pass_export_updates_item_delivery_google_status import (
    PassExportUpdatesItemDeliveryGoogleStatus,
)
from .pass_export_updates_item_kind import PassExportUpdatesItemKind
from .pass_export_updates_item_notification_mode import (
    PassExportUpdatesItemNotificationMode,
)
from .pass_export_updates_item_object import PassExportUpdatesItemObject
from .pass_field_values import PassFieldValues
from .pass_image_body import PassImageBody
from .pass_images import PassImages
from .pass_last_email_type_0 import PassLastEmailType0
from .pass_last_email_type_0_error_type_0 import PassLastEmailType0ErrorType0
from .pass_last_email_type_0_locale import PassLastEmailType0Locale
from .pass_last_email_type_0_object import PassLastEmailType0Object
from .pass_last_email_type_0_status import PassLastEmailType0Status
from .pass_object import PassObject
from .pass_platforms import PassPlatforms
from .pass_preview import PassPreview
from .pass_send import PassSend
from .pass_send_locale import PassSendLocale
from .pass_signing import PassSigning
from .pass_source import PassSource
from .pass_status import PassStatus
from .pass_update import PassUpdate
from .pass_update_body import PassUpdateBody
from .pass_update_body_field_values import PassUpdateBodyFieldValues
from .pass_update_body_notification_mode import PassUpdateBodyNotificationMode
from .pass_update_changes import PassUpdateChanges
from .pass_update_changes_fields_item import PassUpdateChangesFieldsItem
from .pass_update_delivery import PassUpdateDelivery
from .pass_update_delivery_apple import PassUpdateDeliveryApple
from .pass_update_delivery_apple_error_type_0 import PassUpdateDeliveryAppleErrorType0
from .pass_update_delivery_apple_status import PassUpdateDeliveryAppleStatus
from .pass_update_delivery_google import PassUpdateDeliveryGoogle
from .pass_update_delivery_google_error_type_0 import PassUpdateDeliveryGoogleErrorType0
from .pass_update_delivery_google_status import PassUpdateDeliveryGoogleStatus
from .pass_update_kind import PassUpdateKind
from .pass_update_notification_mode import PassUpdateNotificationMode
from .pass_update_object import PassUpdateObject
from .pass_with_update import PassWithUpdate
from .pass_with_update_update import PassWithUpdateUpdate
from .pass_with_update_update_changes import PassWithUpdateUpdateChanges
from .pass_with_update_update_changes_fields_item import (
    PassWithUpdateUpdateChangesFieldsItem,
)
from .pass_with_update_update_delivery import PassWithUpdateUpdateDelivery
from .pass_with_update_update_delivery_apple import PassWithUpdateUpdateDeliveryApple
from .pass_with_update_update_delivery_apple_error_type_0 import (
    PassWithUpdateUpdateDeliveryAppleErrorType0,
)
from .pass_with_update_update_delivery_apple_status import (
    PassWithUpdateUpdateDeliveryAppleStatus,
)
from .pass_with_update_update_delivery_google import PassWithUpdateUpdateDeliveryGoogle
from .pass_with_update_update_delivery_google_error_type_0 import (
    PassWithUpdateUpdateDeliveryGoogleErrorType0,
)
from .pass_with_update_update_delivery_google_status import (
    PassWithUpdateUpdateDeliveryGoogleStatus,
)
from .pass_with_update_update_kind import PassWithUpdateUpdateKind
from .pass_with_update_update_notification_mode import (
    PassWithUpdateUpdateNotificationMode,
)
from .pass_with_update_update_object import PassWithUpdateUpdateObject
from .redemption import Redemption
from .redemption_create import RedemptionCreate
from .redemption_object import RedemptionObject
from .redemption_scanned_by_type_0 import RedemptionScannedByType0
from .redemption_scanned_by_type_0_type import RedemptionScannedByType0Type
from .redemption_source import RedemptionSource
from .rotate_secret import RotateSecret
from .scan_create import ScanCreate
from .scan_result import ScanResult
from .scan_result_object import ScanResultObject
from .scan_result_scanned_by_type_0 import ScanResultScannedByType0
from .scan_result_scanned_by_type_0_type import ScanResultScannedByType0Type
from .scan_result_source import ScanResultSource
from .template import Template
from .template_create import TemplateCreate
from .template_create_type import TemplateCreateType
from .template_duplicate import TemplateDuplicate
from .template_object import TemplateObject
from .template_settings import TemplateSettings
from .template_type import TemplateType
from .template_update import TemplateUpdate
from .template_update_settings import TemplateUpdateSettings
from .tier import Tier
from .translation import Translation
from .translation_event import TranslationEvent
from .translation_event_venue import TranslationEventVenue
from .translation_fields import TranslationFields
from .translation_fields_additional_property import TranslationFieldsAdditionalProperty
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_attempts_item import WebhookDeliveryAttemptsItem
from .webhook_delivery_attempts_item_error_type_0 import (
    WebhookDeliveryAttemptsItemErrorType0,
)
from .webhook_delivery_attempts_item_error_type_0_code import (
    WebhookDeliveryAttemptsItemErrorType0Code,
)
from .webhook_delivery_event_type import WebhookDeliveryEventType
from .webhook_delivery_object import WebhookDeliveryObject
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_disabled_reason_type_0 import WebhookEndpointDisabledReasonType0
from .webhook_endpoint_environment import WebhookEndpointEnvironment
from .webhook_endpoint_object import WebhookEndpointObject
from .webhook_endpoint_status import WebhookEndpointStatus

__all__ = (
    "Asset",
    "AssetContentType",
    "AssetCreate",
    "AssetCreateSlot",
    "AssetObject",
    "AssetSlot",
    "BalanceTransaction",
    "BalanceTransactionCreate",
    "BalanceTransactionCreateNotificationMode",
    "BalanceTransactionObject",
    "BalanceTransactionResult",
    "BalanceTransactionResultObject",
    "BalanceTransactionResultPass",
    "BalanceTransactionResultPassArtifacts",
    "BalanceTransactionResultPassArtifactsApple",
    "BalanceTransactionResultPassArtifactsGoogle",
    "BalanceTransactionResultPassEditableFieldsItem",
    "BalanceTransactionResultPassEnvironment",
    "BalanceTransactionResultPassFieldValues",
    "BalanceTransactionResultPassImages",
    "BalanceTransactionResultPassLastEmailType0",
    "BalanceTransactionResultPassLastEmailType0ErrorType0",
    "BalanceTransactionResultPassLastEmailType0Locale",
    "BalanceTransactionResultPassLastEmailType0Object",
    "BalanceTransactionResultPassLastEmailType0Status",
    "BalanceTransactionResultPassObject",
    "BalanceTransactionResultPassPlatforms",
    "BalanceTransactionResultPassPreview",
    "BalanceTransactionResultPassSigning",
    "BalanceTransactionResultPassSource",
    "BalanceTransactionResultPassStatus",
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
    "ErrorDetailIssuesItem",
    "ErrorDetailType",
    "ErrorError",
    "ErrorErrorIssuesItem",
    "ErrorErrorType",
    "Event",
    "EventData",
    "EventEnvironment",
    "EventObject",
    "EventType",
    "Field",
    "FieldBinding",
    "FieldFormat",
    "GetInsightsGroupBy",
    "GetInsightsPlatform",
    "Insights",
    "InsightsGroupBy",
    "InsightsObject",
    "InsightsPlatformType0",
    "InsightsRates",
    "InsightsRatesByPlatform",
    "InsightsRatesByPlatformApple",
    "InsightsRatesByPlatformGoogle",
    "InsightsSeriesItem",
    "InsightsSeriesItemByPlatform",
    "InsightsSeriesItemByPlatformApple",
    "InsightsSeriesItemByPlatformGoogle",
    "InsightsSeriesItemPlatform",
    "InsightsTotals",
    "InsightsTotalsByPlatform",
    "InsightsTotalsByPlatformApple",
    "InsightsTotalsByPlatformGoogle",
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
    "MePermissionsType0",
    "MePermissionsType0Assets",
    "MePermissionsType0BulkJobs",
    "MePermissionsType0DownloadLinks",
    "MePermissionsType0Events",
    "MePermissionsType0Insights",
    "MePermissionsType0Passes",
    "MePermissionsType0Redemptions",
    "MePermissionsType0Templates",
    "MePermissionsType0Webhooks",
    "Message",
    "MessageAudience",
    "MessageCreate",
    "MessageCreateAudience",
    "MessageDelivery",
    "MessageDeliveryApple",
    "MessageDeliveryAppleReasons",
    "MessageDeliveryGoogle",
    "MessageDeliveryGoogleReasons",
    "MessageObject",
    "MessageSource",
    "MessageStatus",
    "Pass",
    "PassArtifacts",
    "PassArtifactsApple",
    "PassArtifactsGoogle",
    "PassCreate",
    "PassCreateFieldValues",
    "PassCreatePlatforms",
    "PassEditableFieldsItem",
    "PassEnvironment",
    "PassExport",
    "PassExportActivityItem",
    "PassExportEmailsItem",
    "PassExportEmailsItemErrorType0",
    "PassExportEmailsItemLocale",
    "PassExportEmailsItemObject",
    "PassExportEmailsItemStatus",
    "PassExportEventsItem",
    "PassExportEventsItemData",
    "PassExportEventsItemEnvironment",
    "PassExportEventsItemObject",
    "PassExportEventsItemType",
    "PassExportInstallations",
    "PassExportInstallationsAppleItem",
    "PassExportInstallationsGoogleType0",
    "PassExportObject",
    "PassExportRedemptionsItem",
    "PassExportRedemptionsItemObject",
    "PassExportRedemptionsItemScannedByType0",
    "PassExportRedemptionsItemScannedByType0Type",
    "PassExportRedemptionsItemSource",
    "PassExportUpdatesItem",
    "PassExportUpdatesItemChanges",
    "PassExportUpdatesItemChangesFieldsItem",
    "PassExportUpdatesItemDelivery",
    "PassExportUpdatesItemDeliveryApple",
    "PassExportUpdatesItemDeliveryAppleErrorType0",
    "PassExportUpdatesItemDeliveryAppleStatus",
    "PassExportUpdatesItemDeliveryGoogle",
    "PassExportUpdatesItemDeliveryGoogleErrorType0",
    "PassExportUpdatesItemDeliveryGoogleStatus",
    "PassExportUpdatesItemKind",
    "PassExportUpdatesItemNotificationMode",
    "PassExportUpdatesItemObject",
    "PassFieldValues",
    "PassImageBody",
    "PassImages",
    "PassLastEmailType0",
    "PassLastEmailType0ErrorType0",
    "PassLastEmailType0Locale",
    "PassLastEmailType0Object",
    "PassLastEmailType0Status",
    "PassObject",
    "PassPlatforms",
    "PassPreview",
    "PassSend",
    "PassSendLocale",
    "PassSigning",
    "PassSource",
    "PassStatus",
    "PassUpdate",
    "PassUpdateBody",
    "PassUpdateBodyFieldValues",
    "PassUpdateBodyNotificationMode",
    "PassUpdateChanges",
    "PassUpdateChangesFieldsItem",
    "PassUpdateDelivery",
    "PassUpdateDeliveryApple",
    "PassUpdateDeliveryAppleErrorType0",
    "PassUpdateDeliveryAppleStatus",
    "PassUpdateDeliveryGoogle",
    "PassUpdateDeliveryGoogleErrorType0",
    "PassUpdateDeliveryGoogleStatus",
    "PassUpdateKind",
    "PassUpdateNotificationMode",
    "PassUpdateObject",
    "PassWithUpdate",
    "PassWithUpdateUpdate",
    "PassWithUpdateUpdateChanges",
    "PassWithUpdateUpdateChangesFieldsItem",
    "PassWithUpdateUpdateDelivery",
    "PassWithUpdateUpdateDeliveryApple",
    "PassWithUpdateUpdateDeliveryAppleErrorType0",
    "PassWithUpdateUpdateDeliveryAppleStatus",
    "PassWithUpdateUpdateDeliveryGoogle",
    "PassWithUpdateUpdateDeliveryGoogleErrorType0",
    "PassWithUpdateUpdateDeliveryGoogleStatus",
    "PassWithUpdateUpdateKind",
    "PassWithUpdateUpdateNotificationMode",
    "PassWithUpdateUpdateObject",
    "Redemption",
    "RedemptionCreate",
    "RedemptionObject",
    "RedemptionScannedByType0",
    "RedemptionScannedByType0Type",
    "RedemptionSource",
    "RotateSecret",
    "ScanCreate",
    "ScanResult",
    "ScanResultObject",
    "ScanResultScannedByType0",
    "ScanResultScannedByType0Type",
    "ScanResultSource",
    "Template",
    "TemplateCreate",
    "TemplateCreateType",
    "TemplateDuplicate",
    "TemplateObject",
    "TemplateSettings",
    "TemplateType",
    "TemplateUpdate",
    "TemplateUpdateSettings",
    "Tier",
    "Translation",
    "TranslationEvent",
    "TranslationEventVenue",
    "TranslationFields",
    "TranslationFieldsAdditionalProperty",
    "WebhookDelivery",
    "WebhookDeliveryAttemptsItem",
    "WebhookDeliveryAttemptsItemErrorType0",
    "WebhookDeliveryAttemptsItemErrorType0Code",
    "WebhookDeliveryEventType",
    "WebhookDeliveryObject",
    "WebhookDeliveryStatus",
    "WebhookEndpoint",
    "WebhookEndpointDisabledReasonType0",
    "WebhookEndpointEnvironment",
    "WebhookEndpointObject",
    "WebhookEndpointStatus",
)
