// Generated from the backend's route declarations by `npm run generate:api -w packages/console`. Do not edit.
export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getRoot"];
        put?: never;
        post: operations["postRoot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ai-agent/optimize-prompt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["optimizePrompt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/announcements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listAnnouncements"];
        put?: never;
        post: operations["createAnnouncement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/announcements/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showAnnouncement"];
        put: operations["updateAnnouncement"];
        post?: never;
        delete: operations["deleteAnnouncement"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/announcements/{id}/media-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["setAnnouncementMedia"];
        delete: operations["removeAnnouncementMedia"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/announcements/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listAllAnnouncements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chatapp-microservice/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postApiChatappMicroserviceWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiCompanies"];
        put?: never;
        post: operations["postApiCompanies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiCompaniesById"];
        put: operations["putApiCompaniesById"];
        post?: never;
        delete: operations["deleteApiCompaniesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companies/{id}/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putApiCompaniesByIdSchedules"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/companiesEmail/{email}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiCompaniesEmailByEmail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiContacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts-count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiContactsCount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/helps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiHelps"];
        put?: never;
        post: operations["postApiHelps"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/helps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiHelpsById"];
        put: operations["putApiHelpsById"];
        post?: never;
        delete: operations["deleteApiHelpsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiInvoices"];
        put?: never;
        post: operations["postApiInvoices"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiInvoicesById"];
        put: operations["putApiInvoicesById"];
        post?: never;
        delete: operations["deleteApiInvoicesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invoicesCompany/{companyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiInvoicesCompanyByCompanyId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages/checkNumber": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postApiMessagesCheckNumber"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postApiMessagesSend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages/send-button": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postApiMessagesSendButton"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages/send-list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postApiMessagesSendList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messages/send/linkImage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postApiMessagesSendLinkImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/messagesRange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiMessagesRange"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/partners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiPartners"];
        put?: never;
        post: operations["postApiPartners"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/partners/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiPartnersById"];
        put: operations["putApiPartnersById"];
        post?: never;
        delete: operations["deleteApiPartnersById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiPlans"];
        put?: never;
        post: operations["postApiPlans"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiPlansById"];
        put: operations["putApiPlansById"];
        post?: never;
        delete: operations["deleteApiPlansById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{email}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiUsersByEmail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/consulta-cnpj/{cnpj}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getAuthConsultaCnpjByCnpj"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postAuthForgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postAuthLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["deleteAuthLogout"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getAuthMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/refresh_token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postAuthRefreshToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postAuthResetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postAuthSignup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/bizchat-templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getBizchatTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaign-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listCampaignSettings"];
        put?: never;
        post: operations["saveCampaignSettings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listCampaigns"];
        put?: never;
        post: operations["createCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showCampaign"];
        put: operations["updateCampaign"];
        post?: never;
        delete: operations["deleteCampaign"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["cancelCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/media-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["setCampaignMedia"];
        delete: operations["removeCampaignMedia"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/{id}/restart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["restartCampaign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/campaigns/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listAllCampaigns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCategories"];
        put?: never;
        post: operations["postCategories"];
        delete: operations["deleteCategories"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/categories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putCategoriesById"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/categories/all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCategoriesAll"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chatapp-admin/{chatappId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getChatappAdminByChatappId"];
        put: operations["putChatappAdminByChatappId"];
        post?: never;
        delete: operations["deleteChatappAdminByChatappId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chatapp-restart/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postChatappRestart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chatapp/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getChatapp"];
        put?: never;
        post: operations["postChatapp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chatapp/{chatappId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getChatappByChatappId"];
        put: operations["putChatappByChatappId"];
        post?: never;
        delete: operations["deleteChatappByChatappId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chatapp/{chatappId}/media-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postChatappByChatappIdMediaUpload"];
        delete: operations["deleteChatappByChatappIdMediaUpload"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chatapp/all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getChatappAll"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chatapp/filter": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getChatappFilter"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chatappsession/{chatappId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putChatappsessionByChatappId"];
        post: operations["postChatappsessionByChatappId"];
        delete: operations["deleteChatappsessionByChatappId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chatbot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getChatbot"];
        put?: never;
        post: operations["postChatbot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chatbot/{chatbotId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getChatbotByChatbotId"];
        put: operations["putChatbotByChatbotId"];
        post?: never;
        delete: operations["deleteChatbotByChatbotId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listChats"];
        put?: never;
        post: operations["createChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chats/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showChat"];
        put: operations["updateChat"];
        post?: never;
        delete: operations["deleteChat"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chats/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listChatMessages"];
        put?: never;
        post: operations["sendChatMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/chats/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["markChatRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/closedimported/{chatappId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postClosedimportedByChatappId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompanies"];
        put?: never;
        post: operations["postCompanies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompaniesById"];
        put: operations["putCompaniesById"];
        post?: never;
        delete: operations["deleteCompaniesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companies/{id}/disk-usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompaniesByIdDiskUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companies/{id}/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putCompaniesByIdSchedules"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companies/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompaniesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companies/listPlan/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompaniesListPlanById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companiesPlan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompaniesPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/company-templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompanyTemplates"];
        put?: never;
        post: operations["postCompanyTemplates"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/company-templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompanyTemplatesById"];
        put: operations["putCompanyTemplatesById"];
        post?: never;
        delete: operations["deleteCompanyTemplatesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companySettingOne/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompanySettingOne"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companySettings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompanySettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companySettings/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putCompanySettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/companySettings/{companyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCompanySettingsByCompanyId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-list-items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactListItems"];
        put?: never;
        post: operations["postContactListItems"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-list-items/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactListItemsById"];
        put: operations["putContactListItemsById"];
        post?: never;
        delete: operations["deleteContactListItemsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-list-items/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactListItemsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-lists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactLists"];
        put?: never;
        post: operations["postContactLists"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-lists/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactListsById"];
        put: operations["putContactListsById"];
        post?: never;
        delete: operations["deleteContactListsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-lists/{id}/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postContactListsByIdUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-lists/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactListsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-sellers/assign/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putContactSellersAssignByContactId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-sellers/responsible/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactSellersResponsibleByContactId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-sellers/sellers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactSellersSellers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contact-wallet/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putContactWalletByContactId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContacts"];
        put?: never;
        post: operations["postContacts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts-report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["contactsReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactsByContactId"];
        put: operations["putContactsByContactId"];
        post?: never;
        delete: operations["deleteContactsByContactId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/{contactId}/link-user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putContactsByContactIdLinkUser"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/{contactId}/unlink-user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putContactsByContactIdUnlinkUser"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/block/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putContactsBlockByContactId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postContactsImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/profile/{number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactsProfileByNumber"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/toggleAcceptAudio/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putContactsToggleAcceptAudioByContactId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/toggleDisableBot/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putContactsToggleDisableBotByContactId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contacts/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postContactsUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contactsImport": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postContactsImport2"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/contactTags/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getContactTagsByContactId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showDashboard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/clear-cache": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["clearDashboardCache"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/extended-metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["dashboardExtendedMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/moments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["dashboardMoments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/refresh-views": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["refreshDashboardViews"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/ticketsDay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["dashboardTicketsByDay"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/ticketsUsers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["dashboardTicketsByUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dashboard/top-contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["dashboardTopContacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/debug-queues": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getDebugQueues"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getFiles"];
        put?: never;
        post: operations["postFiles"];
        delete: operations["deleteFiles"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getFilesByFileId"];
        put: operations["putFilesByFileId"];
        post?: never;
        delete: operations["deleteFilesByFileId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getFilesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/uploadList/{fileListId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postFilesUploadListByFileListId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flowBuilder/ai-agent/config-chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["aiAgentConfigChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flowBuilder/ai-agent/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["aiAgentOptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listFlows"];
        put?: never;
        post: operations["createFlow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{flowId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showFlow"];
        put: operations["updateFlow"];
        post?: never;
        delete: operations["deleteFlow"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{flowId}/edges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["addFlowEdge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{flowId}/edges/{edgeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["removeFlowEdge"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{flowId}/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["executeFlow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{flowId}/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["saveFlowGraph"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{flowId}/nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["addFlowNode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{flowId}/nodes/{nodeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["updateFlowNode"];
        post?: never;
        delete: operations["removeFlowNode"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{flowId}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["publishFlow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/flows/{flowId}/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["simulateFlow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getInvoices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putInvoicesById"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invoices/{Invoiceid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getInvoicesByInvoiceid"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/lgpd-response": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postLgpdResponse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/message/forward": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postMessageForward"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages-allMe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getMessagesAllMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["deleteMessagesByMessageId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/{ticketId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getMessagesByTicketId"];
        put?: never;
        post: operations["postMessagesByTicketId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/{ticketId}/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postMessagesByTicketIdCatalog"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/edit/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postMessagesEditByMessageId"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/messages/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getMessagesMedia"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/objstore-configs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listObjstoreConfigs"];
        put?: never;
        post: operations["createObjstoreConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/objstore-configs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showObjstoreConfig"];
        put: operations["updateObjstoreConfig"];
        post?: never;
        delete: operations["deleteObjstoreConfig"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/objstore-configs/test-connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["testObjstoreConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/order-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listOrderSettings"];
        put?: never;
        post: operations["createOrderSetting"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/order-settings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showOrderSetting"];
        put: operations["updateOrderSetting"];
        post?: never;
        delete: operations["deleteOrderSetting"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listOrders"];
        put?: never;
        post: operations["createOrder"];
        delete: operations["deleteOrders"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{orderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showOrder"];
        put: operations["updateOrder"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/{orderId}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listOrderLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/contact/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listContactOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getPlans"];
        put?: never;
        post: operations["postPlans"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getPlansById"];
        put: operations["putPlansById"];
        post?: never;
        delete: operations["deletePlansById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plans/all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getPlansAll"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plans/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getPlansList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getProducts"];
        put?: never;
        post: operations["postProducts"];
        delete: operations["deleteProducts"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/{productId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getProductsByProductId"];
        put: operations["putProductsByProductId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/{productId}/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postProductsByProductIdImages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/{productId}/images/{imageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["deleteProductsByProductIdImagesByImageId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postProductsImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/import/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getProductsImportById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/products/import/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getProductsImportStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/prompt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listPrompts"];
        put?: never;
        post: operations["createPrompt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/prompt/{promptId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showPrompt"];
        put: operations["updatePrompt"];
        post?: never;
        delete: operations["deletePrompt"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listProxies"];
        put?: never;
        post: operations["createProxy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxy/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["updateProxy"];
        post?: never;
        delete: operations["deleteProxy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxy/assign/{chatappId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["assignProxy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxy/auto-balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["autoBalanceProxies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxy/disable-problematic/{proxyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["disableProblematicProxy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxy/force-reassign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["forceReassignProxies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxy/force-rebalance-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["forceRebalanceAllProxies"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxy/remove/{chatappId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["removeProxyAssignment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/proxy/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["proxyStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/public-settings/{settingKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getPublicSettingsBySettingKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getQueue"];
        put?: never;
        post: operations["postQueue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/queue-options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getQueueOptions"];
        put?: never;
        post: operations["postQueueOptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/queue-options/{queueOptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getQueueOptionsByQueueOptionId"];
        put: operations["putQueueOptionsByQueueOptionId"];
        post?: never;
        delete: operations["deleteQueueOptionsByQueueOptionId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/queue/{queueId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getQueueByQueueId"];
        put: operations["putQueueByQueueId"];
        post?: never;
        delete: operations["deleteQueueByQueueId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/queue/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getQueueUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/queueIntegration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getQueueIntegration"];
        put?: never;
        post: operations["postQueueIntegration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/queueIntegration/{integrationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getQueueIntegrationByIntegrationId"];
        put: operations["putQueueIntegrationByIntegrationId"];
        post?: never;
        delete: operations["deleteQueueIntegrationByIntegrationId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/queueIntegration/testsession": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postQueueIntegrationTestsession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listSchedules"];
        put?: never;
        post: operations["createSchedule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules-message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listScheduledMessages"];
        put?: never;
        post: operations["createScheduledMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules-message/{scheduleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showScheduledMessage"];
        put: operations["updateScheduledMessage"];
        post?: never;
        delete: operations["deleteScheduledMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{id}/media-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["setScheduleMedia"];
        delete: operations["removeScheduleMedia"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schedules/{scheduleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showSchedule"];
        put: operations["updateSchedule"];
        post?: never;
        delete: operations["deleteSchedule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/send-bizchat-template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postSendBizchatTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/setting/{settingKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getSettingBySettingKey"];
        put: operations["putSettingBySettingKey"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings-whitelabel/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postSettingsWhitelabelLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings-whitelabel/logo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postSettingsWhitelabelLogo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/{settingKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getSettingsBySettingKey"];
        put: operations["putSettingsBySettingKey"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/settings/privateFile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postSettingsPrivateFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/socialnet/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postSocialnet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/create/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postSubscriptionCreateWebhook"];
        delete: operations["deleteSubscriptionCreateWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/return/<RETURN_TOKEN>/pix": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postSubscriptionReturnRETURNTOKENPix"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tag/kanban": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTagKanban"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTags"];
        put?: never;
        post: operations["postTags"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tags-contacts/{tagId}/{contactId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["deleteTagsContactsByTagIdAndContactId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tags/{tagId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTagsByTagId"];
        put: operations["putTagsByTagId"];
        post?: never;
        delete: operations["deleteTagsByTagId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tags/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTagsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tags/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postTagsSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket-tags/{ticketId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["deleteTicketTagsByTicketId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket-tags/{ticketId}/{tagId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putTicketTagsByTicketIdAndTagId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/kanban": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTicketKanban"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketreport/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTicketreportReports"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTickets"];
        put?: never;
        post: operations["postTickets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tickets-log/{ticketId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTicketsLogByTicketId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tickets/{ticketId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTicketsByTicketId"];
        put: operations["putTicketsByTicketId"];
        post?: never;
        delete: operations["deleteTicketsByTicketId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tickets/{ticketId}/ignore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putTicketsByTicketIdIgnore"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tickets/closeAll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postTicketsCloseAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tickets/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTicketsCount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tickets/u/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getTicketsUByUuid"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transcription-credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listTranscriptionCredentials"];
        put?: never;
        post: operations["createTranscriptionCredential"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transcription-credentials/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["updateTranscriptionCredential"];
        post?: never;
        delete: operations["deleteTranscriptionCredential"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transcription-credentials/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["showDefaultTranscriptionCredential"];
        put: operations["setDefaultTranscriptionCredential"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/transcription/{ticketId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["transcribeTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getUsers"];
        put?: never;
        post: operations["postUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getUsersByUserId"];
        put: operations["putUsersByUserId"];
        post?: never;
        delete: operations["deleteUsersByUserId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/media-upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postUsersByUserIdMediaUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getUsersList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/toggleChangeWidht/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["putUsersToggleChangeWidhtByUserId"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/usersMoments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["usersMoments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getVersion"];
        put?: never;
        post: operations["postVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getWebhook"];
        put?: never;
        post: operations["postWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @example {
         *       "reply": "Olá! Como posso ajudar?",
         *       "usage": {
         *         "promptTokens": 120,
         *         "completionTokens": 9,
         *         "totalTokens": 129
         *       },
         *       "handoff": false,
         *       "latencyMs": 840
         *     }
         */
        AiAgentChat: {
            handoff: boolean;
            latencyMs: number;
            reply: string;
            usage: {
                completionTokens: number;
                promptTokens: number;
                totalTokens: number;
            };
        };
        /**
         * @example {
         *       "providers": [
         *         {
         *           "id": "openai",
         *           "name": "OpenAI",
         *           "models": [
         *             "gpt-4o-mini"
         *           ]
         *         },
         *         {
         *           "id": "openai-compatible",
         *           "name": "OpenAI-compatible",
         *           "models": [
         *             "gpt-4o-mini"
         *           ]
         *         }
         *       ],
         *       "models": [
         *         "gpt-4o-mini"
         *       ],
         *       "voices": [
         *         "texto"
         *       ],
         *       "defaults": {
         *         "provider": "openai",
         *         "model": "gpt-4o-mini",
         *         "temperature": 1,
         *         "maxTokens": 100,
         *         "maxMessages": 10,
         *         "voice": "texto"
         *       },
         *       "prompts": [
         *         {
         *           "id": 4,
         *           "name": "Atendente virtual",
         *           "model": "gpt-4o-mini",
         *           "queueId": 2
         *         }
         *       ]
         *     }
         */
        AiAgentOptions: {
            defaults: {
                maxMessages: number;
                maxTokens: number;
                model: string | null;
                /** @enum {string} */
                provider: "openai" | "openai-compatible";
                temperature: number;
                voice: string;
            };
            models: string[];
            prompts: {
                id: number;
                model: string;
                name: string;
                queueId: number | null;
            }[];
            providers: {
                /** @enum {string} */
                id: "openai" | "openai-compatible";
                models: string[];
                name: string;
            }[];
            voices: string[];
        };
        /**
         * @example {
         *       "id": 7,
         *       "companyId": 1,
         *       "priority": 1,
         *       "title": "Manutenção programada",
         *       "text": "O sistema fica fora do ar domingo, das 2h às 4h.",
         *       "mediaPath": "https://files.example.com/public/announcements/0b6f…-aviso.png",
         *       "mediaName": "aviso.png",
         *       "mediaType": "image/png",
         *       "status": true,
         *       "targetCompanyIds": null,
         *       "startsAt": "2025-11-28T12:00:00.000Z",
         *       "endsAt": "2025-11-30T07:00:00.000Z",
         *       "createdAt": "2025-11-27T18:00:00.000Z",
         *       "updatedAt": "2025-11-27T18:05:00.000Z"
         *     }
         */
        Announcement: {
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @example null
             */
            endsAt: string | null;
            id: number;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            /** @example null */
            mediaType: string | null;
            priority: 1 | 2 | 3;
            /**
             * Format: date-time
             * @example null
             */
            startsAt: string | null;
            status: boolean;
            /** @example null */
            targetCompanyIds: number[] | null;
            text: string;
            title: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example [
         *       {
         *         "id": 7,
         *         "companyId": 1,
         *         "priority": 1,
         *         "title": "Manutenção programada",
         *         "text": "O sistema fica fora do ar domingo, das 2h às 4h.",
         *         "mediaPath": "https://files.example.com/public/announcements/0b6f…-aviso.png",
         *         "mediaName": "aviso.png",
         *         "mediaType": "image/png",
         *         "status": true,
         *         "targetCompanyIds": null,
         *         "startsAt": "2025-11-28T12:00:00.000Z",
         *         "endsAt": "2025-11-30T07:00:00.000Z",
         *         "createdAt": "2025-11-27T18:00:00.000Z",
         *         "updatedAt": "2025-11-27T18:05:00.000Z",
         *         "company": {
         *           "id": 1,
         *           "name": "Plataforma"
         *         }
         *       }
         *     ]
         */
        AnnouncementList: {
            /**
             * @example {
             *       "id": 1,
             *       "name": "Plataforma"
             *     }
             */
            company: {
                id: number;
                name: string;
            } | null;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @example null
             */
            endsAt: string | null;
            id: number;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            /** @example null */
            mediaType: string | null;
            priority: 1 | 2 | 3;
            /**
             * Format: date-time
             * @example null
             */
            startsAt: string | null;
            status: boolean;
            /** @example null */
            targetCompanyIds: number[] | null;
            text: string;
            title: string;
            /** Format: date-time */
            updatedAt: string;
        }[];
        /**
         * @example {
         *       "mensagem": "Mensagem enviada",
         *       "id": 7,
         *       "companyId": 1,
         *       "priority": 1,
         *       "title": "Manutenção programada",
         *       "text": "O sistema fica fora do ar domingo, das 2h às 4h.",
         *       "mediaPath": "https://files.example.com/public/announcements/0b6f…-aviso.png",
         *       "mediaName": "aviso.png",
         *       "mediaType": "image/png",
         *       "status": true,
         *       "targetCompanyIds": null,
         *       "startsAt": "2025-11-28T12:00:00.000Z",
         *       "endsAt": "2025-11-30T07:00:00.000Z",
         *       "createdAt": "2025-11-27T18:00:00.000Z",
         *       "updatedAt": "2025-11-27T18:05:00.000Z"
         *     }
         */
        AnnouncementMedia: {
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @example null
             */
            endsAt: string | null;
            id: number;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            /** @example null */
            mediaType: string | null;
            mensagem: string;
            priority: 1 | 2 | 3;
            /**
             * Format: date-time
             * @example null
             */
            startsAt: string | null;
            status: boolean;
            /** @example null */
            targetCompanyIds: number[] | null;
            text: string;
            title: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "records": [
         *         {
         *           "id": 7,
         *           "companyId": 1,
         *           "priority": 1,
         *           "title": "Manutenção programada",
         *           "text": "O sistema fica fora do ar domingo, das 2h às 4h.",
         *           "mediaPath": "https://files.example.com/public/announcements/0b6f…-aviso.png",
         *           "mediaName": "aviso.png",
         *           "mediaType": "image/png",
         *           "status": true,
         *           "targetCompanyIds": null,
         *           "startsAt": "2025-11-28T12:00:00.000Z",
         *           "endsAt": "2025-11-30T07:00:00.000Z",
         *           "createdAt": "2025-11-27T18:00:00.000Z",
         *           "updatedAt": "2025-11-27T18:05:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        AnnouncementPage: {
            count: number;
            hasMore: boolean;
            records: components["schemas"]["Announcement"][];
        };
        /**
         * @example {
         *       "status": "SUCCESS",
         *       "message": "Message accepted for delivery",
         *       "ticketId": 42,
         *       "messageIds": [
         *         "3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c"
         *       ],
         *       "messageId": "3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c"
         *     }
         */
        ApiSendResult: {
            message: string;
            messageId: string;
            /**
             * @example [
             *       "3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c"
             *     ]
             */
            messageIds: string[];
            /** @enum {string} */
            status: "SUCCESS";
            ticketId: number;
        };
        BareSettingValue: string;
        /**
         * @example {
         *       "provider": "mercadopago",
         *       "url": "https://desk.example.com/subscription/return/<RETURN_TOKEN>/pix",
         *       "enabled": true,
         *       "verifiedAt": "2026-05-01T12:00:00.000Z"
         *     }
         */
        BillingWebhook: {
            enabled: boolean;
            provider: string;
            url: string;
            /** Format: date-time */
            verifiedAt: string | null;
        };
        BizchatTemplate: {
            category: string;
            components: {
                buttons?: {
                    text?: string;
                    type: string;
                    url?: string;
                }[];
                format?: string;
                text?: string;
                type: string;
            }[];
            id: string;
            language: string;
            name: string;
            /** @enum {string} */
            parameterFormat: "POSITIONAL" | "NAMED";
            status: string;
            variables: {
                body: string[];
                buttons: number[];
                header: number;
                headerFormat: string | null;
            };
        };
        /**
         * @example {
         *       "weekday": "Segunda-feira",
         *       "weekdayEn": "monday",
         *       "startTimeA": "08:00",
         *       "endTimeA": "12:00",
         *       "startTimeB": "13:00",
         *       "endTimeB": "18:00"
         *     }
         */
        BusinessHours: {
            endTimeA: string;
            endTimeB: string;
            startTimeA: string;
            startTimeB: string;
            weekday: string;
            /** @enum {string} */
            weekdayEn: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
        };
        /**
         * @example {
         *       "id": 12,
         *       "companyId": 1,
         *       "name": "Black Friday",
         *       "message1": "Olá {nome}, nossa promoção começou!",
         *       "message2": "Oi {nome}! A promoção já está valendo.",
         *       "message3": "",
         *       "message4": "",
         *       "message5": "",
         *       "confirmationMessage1": "",
         *       "confirmationMessage2": "",
         *       "confirmationMessage3": "",
         *       "confirmationMessage4": "",
         *       "confirmationMessage5": "",
         *       "confirmation": false,
         *       "status": "PROGRAMADA",
         *       "scheduledAt": "2025-11-28T12:00:00.000Z",
         *       "completedAt": null,
         *       "mediaPath": null,
         *       "mediaName": null,
         *       "contactListId": 3,
         *       "tagListId": null,
         *       "chatappId": 2,
         *       "userId": null,
         *       "queueId": null,
         *       "statusTicket": "closed",
         *       "openTicket": "disabled",
         *       "materializedAt": null,
         *       "failureReason": null,
         *       "createdAt": "2025-11-20T09:00:00.000Z",
         *       "updatedAt": "2025-11-20T09:05:00.000Z",
         *       "contactList": {
         *         "id": 3,
         *         "name": "Clientes 2025"
         *       },
         *       "tagList": null,
         *       "chatapp": {
         *         "id": 2,
         *         "name": "Vendas"
         *       },
         *       "user": null,
         *       "queue": null
         *     }
         */
        Campaign: {
            chatapp: components["schemas"]["CampaignChatapp"];
            chatappId: number | null;
            companyId: number;
            /**
             * Format: date-time
             * @example null
             */
            completedAt: string | null;
            confirmation: boolean;
            confirmationMessage1: string;
            confirmationMessage2: string;
            confirmationMessage3: string;
            confirmationMessage4: string;
            confirmationMessage5: string;
            contactList: components["schemas"]["CampaignContactList"];
            contactListId: number | null;
            /** Format: date-time */
            createdAt: string;
            /** @example null */
            failureReason: string | null;
            id: number;
            /**
             * Format: date-time
             * @example null
             */
            materializedAt: string | null;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            message1: string;
            message2: string;
            message3: string;
            message4: string;
            message5: string;
            name: string;
            /** @enum {string} */
            openTicket: "enabled" | "disabled";
            queue: components["schemas"]["CampaignQueue"];
            /** @example null */
            queueId: number | null;
            /** Format: date-time */
            scheduledAt: string | null;
            /** @enum {string} */
            status: "INATIVA" | "PROGRAMADA" | "EM_ANDAMENTO" | "PAUSADA" | "CANCELADA" | "FINALIZADA" | "FALHOU";
            /** @enum {string} */
            statusTicket: "open" | "pending" | "closed";
            tagList: components["schemas"]["CampaignTagList"];
            /** @example null */
            tagListId: number | null;
            /** Format: date-time */
            updatedAt: string;
            user: components["schemas"]["CampaignUser"];
            /** @example null */
            userId: number | null;
        };
        /**
         * @example {
         *       "id": 2,
         *       "name": "Vendas"
         *     }
         */
        CampaignChatapp: {
            id: number;
            name: string;
        } | null;
        /**
         * @example {
         *       "id": 3,
         *       "name": "Clientes 2025"
         *     }
         */
        CampaignContactList: {
            id: number;
            name: string;
        } | null;
        /**
         * @example [
         *       {
         *         "id": 12,
         *         "companyId": 1,
         *         "name": "Black Friday",
         *         "message1": "Olá {nome}, nossa promoção começou!",
         *         "message2": "Oi {nome}! A promoção já está valendo.",
         *         "message3": "",
         *         "message4": "",
         *         "message5": "",
         *         "confirmationMessage1": "",
         *         "confirmationMessage2": "",
         *         "confirmationMessage3": "",
         *         "confirmationMessage4": "",
         *         "confirmationMessage5": "",
         *         "confirmation": false,
         *         "status": "PROGRAMADA",
         *         "scheduledAt": "2025-11-28T12:00:00.000Z",
         *         "completedAt": null,
         *         "mediaPath": null,
         *         "mediaName": null,
         *         "contactListId": 3,
         *         "tagListId": null,
         *         "chatappId": 2,
         *         "userId": null,
         *         "queueId": null,
         *         "statusTicket": "closed",
         *         "openTicket": "disabled",
         *         "materializedAt": null,
         *         "failureReason": null,
         *         "createdAt": "2025-11-20T09:00:00.000Z",
         *         "updatedAt": "2025-11-20T09:05:00.000Z",
         *         "contactList": {
         *           "id": 3,
         *           "name": "Clientes 2025"
         *         },
         *         "tagList": null,
         *         "chatapp": {
         *           "id": 2,
         *           "name": "Vendas"
         *         },
         *         "user": null,
         *         "queue": null
         *       }
         *     ]
         */
        CampaignList: components["schemas"]["Campaign"][];
        /**
         * @example {
         *       "id": 12,
         *       "companyId": 1,
         *       "name": "Black Friday",
         *       "message1": "Olá {nome}, nossa promoção começou!",
         *       "message2": "Oi {nome}! A promoção já está valendo.",
         *       "message3": "",
         *       "message4": "",
         *       "message5": "",
         *       "confirmationMessage1": "",
         *       "confirmationMessage2": "",
         *       "confirmationMessage3": "",
         *       "confirmationMessage4": "",
         *       "confirmationMessage5": "",
         *       "confirmation": false,
         *       "status": "PROGRAMADA",
         *       "scheduledAt": "2025-11-28T12:00:00.000Z",
         *       "completedAt": null,
         *       "mediaPath": "public/company-1/campaigns/12/3f1c2a7e-5b7d-4a59-9a57-0e2f6c1d8b44-promo.jpg",
         *       "mediaName": "promo.jpg",
         *       "contactListId": 3,
         *       "tagListId": null,
         *       "chatappId": 2,
         *       "userId": null,
         *       "queueId": null,
         *       "statusTicket": "closed",
         *       "openTicket": "disabled",
         *       "materializedAt": null,
         *       "failureReason": null,
         *       "createdAt": "2025-11-20T09:00:00.000Z",
         *       "updatedAt": "2025-11-20T09:05:00.000Z",
         *       "contactList": {
         *         "id": 3,
         *         "name": "Clientes 2025"
         *       },
         *       "tagList": null,
         *       "chatapp": {
         *         "id": 2,
         *         "name": "Vendas"
         *       },
         *       "user": null,
         *       "queue": null,
         *       "mensagem": "Mensagem enviada"
         *     }
         */
        CampaignMediaChanged: {
            chatapp: components["schemas"]["CampaignChatapp"];
            chatappId: number | null;
            companyId: number;
            /**
             * Format: date-time
             * @example null
             */
            completedAt: string | null;
            confirmation: boolean;
            confirmationMessage1: string;
            confirmationMessage2: string;
            confirmationMessage3: string;
            confirmationMessage4: string;
            confirmationMessage5: string;
            contactList: components["schemas"]["CampaignContactList"];
            contactListId: number | null;
            /** Format: date-time */
            createdAt: string;
            /** @example null */
            failureReason: string | null;
            id: number;
            /**
             * Format: date-time
             * @example null
             */
            materializedAt: string | null;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            mensagem: string;
            message1: string;
            message2: string;
            message3: string;
            message4: string;
            message5: string;
            name: string;
            /** @enum {string} */
            openTicket: "enabled" | "disabled";
            queue: components["schemas"]["CampaignQueue"];
            /** @example null */
            queueId: number | null;
            /** Format: date-time */
            scheduledAt: string | null;
            /** @enum {string} */
            status: "INATIVA" | "PROGRAMADA" | "EM_ANDAMENTO" | "PAUSADA" | "CANCELADA" | "FINALIZADA" | "FALHOU";
            /** @enum {string} */
            statusTicket: "open" | "pending" | "closed";
            tagList: components["schemas"]["CampaignTagList"];
            /** @example null */
            tagListId: number | null;
            /** Format: date-time */
            updatedAt: string;
            user: components["schemas"]["CampaignUser"];
            /** @example null */
            userId: number | null;
        };
        /**
         * @example {
         *       "records": [
         *         {
         *           "id": 12,
         *           "companyId": 1,
         *           "name": "Black Friday",
         *           "message1": "Olá {nome}, nossa promoção começou!",
         *           "message2": "Oi {nome}! A promoção já está valendo.",
         *           "message3": "",
         *           "message4": "",
         *           "message5": "",
         *           "confirmationMessage1": "",
         *           "confirmationMessage2": "",
         *           "confirmationMessage3": "",
         *           "confirmationMessage4": "",
         *           "confirmationMessage5": "",
         *           "confirmation": false,
         *           "status": "PROGRAMADA",
         *           "scheduledAt": "2025-11-28T12:00:00.000Z",
         *           "completedAt": null,
         *           "mediaPath": null,
         *           "mediaName": null,
         *           "contactListId": 3,
         *           "tagListId": null,
         *           "chatappId": 2,
         *           "userId": null,
         *           "queueId": null,
         *           "statusTicket": "closed",
         *           "openTicket": "disabled",
         *           "materializedAt": null,
         *           "failureReason": null,
         *           "createdAt": "2025-11-20T09:00:00.000Z",
         *           "updatedAt": "2025-11-20T09:05:00.000Z",
         *           "contactList": {
         *             "id": 3,
         *             "name": "Clientes 2025"
         *           },
         *           "tagList": null,
         *           "chatapp": {
         *             "id": 2,
         *             "name": "Vendas"
         *           },
         *           "user": null,
         *           "queue": null
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        CampaignPage: {
            count: number;
            hasMore: boolean;
            records: components["schemas"]["Campaign"][];
        };
        /**
         * @example {
         *       "total": 120,
         *       "pending": 70,
         *       "sent": 10,
         *       "delivered": 25,
         *       "read": 10,
         *       "failed": 3,
         *       "skipped": 2,
         *       "awaitingConfirmation": 0,
         *       "confirmationRequested": 0,
         *       "confirmed": 0,
         *       "failedByReason": {
         *         "not-on-network": 3
         *       },
         *       "skippedByReason": {
         *         "suppressed": 2
         *       }
         *     }
         */
        CampaignProgress: {
            awaitingConfirmation: number;
            confirmationRequested: number;
            confirmed: number;
            delivered: number;
            failed: number;
            /**
             * @example {
             *       "not-on-network": 3
             *     }
             */
            failedByReason: {
                [key: string]: number;
            };
            pending: number;
            read: number;
            sent: number;
            skipped: number;
            /**
             * @example {
             *       "suppressed": 2
             *     }
             */
            skippedByReason: {
                [key: string]: number;
            };
            total: number;
        };
        /**
         * @example {
         *       "id": 1,
         *       "name": "Suporte"
         *     }
         */
        CampaignQueue: {
            id: number;
            name: string;
        } | null;
        /**
         * @example {
         *       "id": 501,
         *       "number": "5511987654321",
         *       "name": "Joana",
         *       "state": "delivered",
         *       "reason": null,
         *       "variant": 2,
         *       "sentAt": "2025-11-28T12:00:21.000Z",
         *       "deliveredAt": "2025-11-28T12:00:23.000Z",
         *       "readAt": null,
         *       "confirmationRequestedAt": null,
         *       "confirmedAt": null
         *     }
         */
        CampaignRecipient: {
            /** Format: date-time */
            confirmationRequestedAt: string | null;
            /** Format: date-time */
            confirmedAt: string | null;
            /** Format: date-time */
            deliveredAt: string | null;
            id: number;
            name: string;
            number: string;
            /** Format: date-time */
            readAt: string | null;
            /** @example null */
            reason: string | null;
            /** Format: date-time */
            sentAt: string | null;
            /** @enum {string} */
            state: "pending" | "sent" | "delivered" | "read" | "failed" | "skipped";
            variant: number;
        };
        /**
         * @example {
         *       "records": [
         *         {
         *           "id": 501,
         *           "number": "5511987654321",
         *           "name": "Joana",
         *           "state": "delivered",
         *           "reason": null,
         *           "variant": 2,
         *           "sentAt": "2025-11-28T12:00:21.000Z",
         *           "deliveredAt": "2025-11-28T12:00:23.000Z",
         *           "readAt": null,
         *           "confirmationRequestedAt": null,
         *           "confirmedAt": null
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        CampaignRecipientPage: {
            count: number;
            hasMore: boolean;
            records: components["schemas"]["CampaignRecipient"][];
        };
        /**
         * @example {
         *       "id": 12,
         *       "companyId": 1,
         *       "name": "Black Friday",
         *       "message1": "Olá {nome}, nossa promoção começou!",
         *       "message2": "Oi {nome}! A promoção já está valendo.",
         *       "message3": "",
         *       "message4": "",
         *       "message5": "",
         *       "confirmationMessage1": "",
         *       "confirmationMessage2": "",
         *       "confirmationMessage3": "",
         *       "confirmationMessage4": "",
         *       "confirmationMessage5": "",
         *       "confirmation": false,
         *       "status": "PROGRAMADA",
         *       "scheduledAt": "2025-11-28T12:00:00.000Z",
         *       "completedAt": null,
         *       "mediaPath": null,
         *       "mediaName": null,
         *       "contactListId": 3,
         *       "tagListId": null,
         *       "chatappId": 2,
         *       "userId": null,
         *       "queueId": null,
         *       "statusTicket": "closed",
         *       "openTicket": "disabled",
         *       "materializedAt": null,
         *       "failureReason": null,
         *       "createdAt": "2025-11-20T09:00:00.000Z",
         *       "updatedAt": "2025-11-20T09:05:00.000Z",
         *       "contactList": {
         *         "id": 3,
         *         "name": "Clientes 2025"
         *       },
         *       "tagList": null,
         *       "chatapp": {
         *         "id": 2,
         *         "name": "Vendas"
         *       },
         *       "user": null,
         *       "queue": null,
         *       "progress": {
         *         "total": 120,
         *         "pending": 70,
         *         "sent": 10,
         *         "delivered": 25,
         *         "read": 10,
         *         "failed": 3,
         *         "skipped": 2,
         *         "awaitingConfirmation": 0,
         *         "confirmationRequested": 0,
         *         "confirmed": 0,
         *         "failedByReason": {
         *           "not-on-network": 3
         *         },
         *         "skippedByReason": {
         *           "suppressed": 2
         *         }
         *       },
         *       "recipients": {
         *         "records": [
         *           {
         *             "id": 501,
         *             "number": "5511987654321",
         *             "name": "Joana",
         *             "state": "delivered",
         *             "reason": null,
         *             "variant": 2,
         *             "sentAt": "2025-11-28T12:00:21.000Z",
         *             "deliveredAt": "2025-11-28T12:00:23.000Z",
         *             "readAt": null,
         *             "confirmationRequestedAt": null,
         *             "confirmedAt": null
         *           }
         *         ],
         *         "count": 1,
         *         "hasMore": false
         *       }
         *     }
         */
        CampaignReport: {
            chatapp: components["schemas"]["CampaignChatapp"];
            chatappId: number | null;
            companyId: number;
            /**
             * Format: date-time
             * @example null
             */
            completedAt: string | null;
            confirmation: boolean;
            confirmationMessage1: string;
            confirmationMessage2: string;
            confirmationMessage3: string;
            confirmationMessage4: string;
            confirmationMessage5: string;
            contactList: components["schemas"]["CampaignContactList"];
            contactListId: number | null;
            /** Format: date-time */
            createdAt: string;
            /** @example null */
            failureReason: string | null;
            id: number;
            /**
             * Format: date-time
             * @example null
             */
            materializedAt: string | null;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            message1: string;
            message2: string;
            message3: string;
            message4: string;
            message5: string;
            name: string;
            /** @enum {string} */
            openTicket: "enabled" | "disabled";
            progress: components["schemas"]["CampaignProgress"];
            queue: components["schemas"]["CampaignQueue"];
            /** @example null */
            queueId: number | null;
            recipients: components["schemas"]["CampaignRecipientPage"];
            /** Format: date-time */
            scheduledAt: string | null;
            /** @enum {string} */
            status: "INATIVA" | "PROGRAMADA" | "EM_ANDAMENTO" | "PAUSADA" | "CANCELADA" | "FINALIZADA" | "FALHOU";
            /** @enum {string} */
            statusTicket: "open" | "pending" | "closed";
            tagList: components["schemas"]["CampaignTagList"];
            /** @example null */
            tagListId: number | null;
            /** Format: date-time */
            updatedAt: string;
            user: components["schemas"]["CampaignUser"];
            /** @example null */
            userId: number | null;
        };
        /**
         * @example {
         *       "id": 1,
         *       "key": "messageInterval",
         *       "value": "20",
         *       "companyId": 1,
         *       "createdAt": "2025-11-20T09:00:00.000Z",
         *       "updatedAt": "2025-11-20T09:00:00.000Z"
         *     }
         */
        CampaignSetting: {
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            id: number;
            key: string;
            /** Format: date-time */
            updatedAt: string;
            value: string;
        };
        /**
         * @example [
         *       {
         *         "id": 1,
         *         "key": "messageInterval",
         *         "value": "20",
         *         "companyId": 1,
         *         "createdAt": "2025-11-20T09:00:00.000Z",
         *         "updatedAt": "2025-11-20T09:00:00.000Z"
         *       }
         *     ]
         */
        CampaignSettingList: components["schemas"]["CampaignSetting"][];
        /**
         * @example {
         *       "id": 7,
         *       "name": "VIP"
         *     }
         */
        CampaignTagList: {
            id: number;
            name: string;
        } | null;
        /**
         * @example {
         *       "id": 4,
         *       "name": "Ana Lima"
         *     }
         */
        CampaignUser: {
            id: number;
            name: string;
        } | null;
        /**
         * @example {
         *       "deleted": 1,
         *       "ids": [
         *         3
         *       ]
         *     }
         */
        CategoriesDeleted: {
            deleted: number;
            ids: number[];
        };
        /**
         * @example {
         *       "id": 3,
         *       "companyId": 1,
         *       "name": "Cafés",
         *       "parentId": null,
         *       "position": 0,
         *       "active": true,
         *       "productsCount": 12,
         *       "createdAt": "2026-02-01T12:00:00.000Z",
         *       "updatedAt": "2026-02-01T12:00:00.000Z"
         *     }
         */
        Category: {
            active: boolean;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            description: string;
            id: number;
            name: string;
            parentId: number | null;
            position: number;
            productsCount: number;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example [
         *       {
         *         "id": 3,
         *         "companyId": 1,
         *         "name": "Cafés",
         *         "parentId": null,
         *         "position": 0,
         *         "active": true,
         *         "productsCount": 12,
         *         "createdAt": "2026-02-01T12:00:00.000Z",
         *         "updatedAt": "2026-02-01T12:00:00.000Z"
         *       }
         *     ]
         */
        CategoryArray: components["schemas"]["Category"][];
        /**
         * @example {
         *       "categories": [
         *         {
         *           "id": 3,
         *           "companyId": 1,
         *           "name": "Cafés",
         *           "parentId": null,
         *           "position": 0,
         *           "active": true,
         *           "productsCount": 12,
         *           "createdAt": "2026-02-01T12:00:00.000Z",
         *           "updatedAt": "2026-02-01T12:00:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        CategoryPage: {
            categories: components["schemas"]["Category"][];
            count: number;
            hasMore: boolean;
        };
        /**
         * @example {
         *       "id": 3,
         *       "uuid": "6f1c0a52-3d2e-4b8a-9f10-2a4b5c6d7e8f",
         *       "title": "Plantão de sábado",
         *       "ownerId": 7,
         *       "lastMessage": "Bia Lima: Cheguei!",
         *       "companyId": 1,
         *       "createdAt": "2025-03-01T12:00:00.000Z",
         *       "updatedAt": "2025-03-01T12:05:00.000Z",
         *       "owner": {
         *         "id": 7,
         *         "name": "Ana Souza",
         *         "email": "ana@loja.test"
         *       },
         *       "users": [
         *         {
         *           "chatId": 3,
         *           "userId": 7,
         *           "unreads": 1,
         *           "user": {
         *             "id": 7,
         *             "name": "Ana Souza",
         *             "email": "ana@loja.test"
         *           }
         *         },
         *         {
         *           "chatId": 3,
         *           "userId": 9,
         *           "unreads": 0,
         *           "user": {
         *             "id": 9,
         *             "name": "Bia Lima",
         *             "email": "bia@loja.test"
         *           }
         *         }
         *       ]
         *     }
         */
        Chat: {
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            id: number;
            lastMessage: string;
            owner: components["schemas"]["ChatUser"];
            ownerId: number | null;
            title: string;
            /** Format: date-time */
            updatedAt: string;
            users: {
                chatId: number;
                unreads: number;
                user: components["schemas"]["ChatUser"];
                userId: number;
            }[];
            /** Format: uuid */
            uuid: string;
        };
        /**
         * @example {
         *       "id": 3,
         *       "name": "Support WhatsApp",
         *       "channel": "chatapp",
         *       "status": "CONNECTED",
         *       "isDefault": true
         *     }
         */
        Chatapp: {
            /** @enum {string} */
            channel: "chatapp" | "socialnet" | "bizchat";
            id: number;
            isDefault: boolean;
            name: string;
            status: string;
        } | null;
        /**
         * @example {
         *       "id": 20,
         *       "queueId": 1,
         *       "chatbotId": null,
         *       "name": "Sales bot",
         *       "greetingMessage": "What are you looking for?",
         *       "option": "1",
         *       "forwardQueueId": null,
         *       "forwardUserId": null,
         *       "closeTicket": false,
         *       "queueType": "text",
         *       "optQueueId": null,
         *       "optUserId": null,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z"
         *     }
         */
        Chatbot: {
            /** @example null */
            chatbotId: number | null;
            closeTicket: boolean;
            /** Format: date-time */
            createdAt: string;
            /** @example null */
            forwardQueueId: number | null;
            /** @example null */
            forwardUserId: number | null;
            greetingMessage: string | null;
            id: number;
            name: string;
            option: string;
            /** @example null */
            optQueueId: number | null;
            /** @example null */
            optUserId: number | null;
            queueId: number;
            /** @enum {string} */
            queueType: "text" | "queue" | "attendent" | "integration" | "file";
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "message": "Chatbot deleted"
         *     }
         */
        ChatbotDeleted: {
            /** @enum {string} */
            message: "Chatbot deleted";
        };
        /**
         * @example {
         *       "chatbots": [
         *         {
         *           "id": 20,
         *           "queueId": 1,
         *           "chatbotId": null,
         *           "name": "Sales bot",
         *           "greetingMessage": "What are you looking for?",
         *           "option": "1",
         *           "forwardQueueId": null,
         *           "forwardUserId": null,
         *           "closeTicket": false,
         *           "queueType": "text",
         *           "optQueueId": null,
         *           "optUserId": null,
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-01-31T12:00:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        ChatbotPage: {
            chatbots: components["schemas"]["Chatbot"][];
            count: number;
            hasMore: boolean;
        };
        ChatbotStep: {
            closeTicket?: boolean;
            greetingMessage?: string | null;
            id?: number;
            name: string;
            options?: components["schemas"]["ChatbotStep"][];
            optQueueId?: number | "" | null;
            /** @example null */
            optUserId?: number | "" | null;
            /** @enum {string} */
            queueType?: "text" | "queue" | "attendent" | "integration" | "file" | "";
        };
        /**
         * @example {
         *       "id": 20,
         *       "queueId": 1,
         *       "chatbotId": null,
         *       "name": "Sales bot",
         *       "greetingMessage": "What are you looking for?",
         *       "option": "1",
         *       "forwardQueueId": null,
         *       "forwardUserId": null,
         *       "closeTicket": false,
         *       "queueType": "text",
         *       "optQueueId": null,
         *       "optUserId": null,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z",
         *       "options": [
         *         {
         *           "id": 21,
         *           "queueId": 1,
         *           "chatbotId": 20,
         *           "name": "Prices",
         *           "greetingMessage": null,
         *           "option": "1",
         *           "forwardQueueId": null,
         *           "forwardUserId": null,
         *           "closeTicket": false,
         *           "queueType": "text",
         *           "optQueueId": null,
         *           "optUserId": null,
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-01-31T12:00:00.000Z",
         *           "options": []
         *         }
         *       ]
         *     }
         */
        ChatbotTree: {
            /** @example null */
            chatbotId: number | null;
            closeTicket: boolean;
            /** Format: date-time */
            createdAt: string;
            /** @example null */
            forwardQueueId: number | null;
            /** @example null */
            forwardUserId: number | null;
            greetingMessage: string | null;
            id: number;
            name: string;
            option: string;
            options: components["schemas"]["ChatbotTree"][];
            /** @example null */
            optQueueId: number | null;
            /** @example null */
            optUserId: number | null;
            queueId: number;
            /** @enum {string} */
            queueType: "text" | "queue" | "attendent" | "integration" | "file";
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "id": 41,
         *       "chatId": 3,
         *       "companyId": 1,
         *       "senderId": 9,
         *       "message": "Cheguei!",
         *       "mediaPath": null,
         *       "mediaName": null,
         *       "mediaType": null,
         *       "createdAt": "2025-03-01T12:05:00.000Z",
         *       "updatedAt": "2025-03-01T12:05:00.000Z",
         *       "sender": {
         *         "id": 9,
         *         "name": "Bia Lima"
         *       }
         *     }
         */
        ChatMessage: {
            chatId: number;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            id: number;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            /**
             * @example null
             * @enum {string|null}
             */
            mediaType: "image" | "audio" | "video" | "document" | null;
            message: string;
            sender: {
                id: number | null;
                name: string;
            };
            senderId: number | null;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "records": [
         *         {
         *           "id": 41,
         *           "chatId": 3,
         *           "companyId": 1,
         *           "senderId": 9,
         *           "message": "Cheguei!",
         *           "mediaPath": null,
         *           "mediaName": null,
         *           "mediaType": null,
         *           "createdAt": "2025-03-01T12:05:00.000Z",
         *           "updatedAt": "2025-03-01T12:05:00.000Z",
         *           "sender": {
         *             "id": 9,
         *             "name": "Bia Lima"
         *           }
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        ChatMessagePage: {
            count: number;
            hasMore: boolean;
            records: components["schemas"]["ChatMessage"][];
        };
        /**
         * @example {
         *       "records": [
         *         {
         *           "id": 3,
         *           "uuid": "6f1c0a52-3d2e-4b8a-9f10-2a4b5c6d7e8f",
         *           "title": "Plantão de sábado",
         *           "ownerId": 7,
         *           "lastMessage": "Bia Lima: Cheguei!",
         *           "companyId": 1,
         *           "createdAt": "2025-03-01T12:00:00.000Z",
         *           "updatedAt": "2025-03-01T12:05:00.000Z",
         *           "owner": {
         *             "id": 7,
         *             "name": "Ana Souza",
         *             "email": "ana@loja.test"
         *           },
         *           "users": [
         *             {
         *               "chatId": 3,
         *               "userId": 7,
         *               "unreads": 1,
         *               "user": {
         *                 "id": 7,
         *                 "name": "Ana Souza",
         *                 "email": "ana@loja.test"
         *               }
         *             },
         *             {
         *               "chatId": 3,
         *               "userId": 9,
         *               "unreads": 0,
         *               "user": {
         *                 "id": 9,
         *                 "name": "Bia Lima",
         *                 "email": "bia@loja.test"
         *               }
         *             }
         *           ]
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        ChatPage: {
            count: number;
            hasMore: boolean;
            records: components["schemas"]["Chat"][];
        };
        /**
         * @example {
         *       "id": 7,
         *       "name": "Ana Souza",
         *       "email": "ana@loja.test"
         *     }
         */
        ChatUser: {
            email: string;
            id: number;
            name: string;
        } | null;
        /**
         * @example {
         *       "number": "5511987654321",
         *       "exists": true,
         *       "id": "5511987654321@s.whatsapp.net"
         *     }
         */
        CheckNumberResult: {
            exists: boolean;
            id: string | null;
            number: string;
        };
        /**
         * @example {
         *       "cnpj": "11222333000181",
         *       "name": "ACME ATENDIMENTO LTDA",
         *       "tradeName": "Acme",
         *       "status": "ATIVA",
         *       "email": "contato@acme.com.br",
         *       "phone": "1140001234",
         *       "address": {
         *         "street": "Avenida Paulista",
         *         "number": "1000",
         *         "district": "Bela Vista",
         *         "city": "São Paulo",
         *         "state": "SP",
         *         "zip": "01310100"
         *       }
         *     }
         */
        CnpjRecord: {
            address: {
                [key: string]: string | null;
            };
            cnpj: string;
            email: string | null;
            name: string;
            phone: string | null;
            status: string | null;
            tradeName: string | null;
        };
        /**
         * @example {
         *       "id": 3,
         *       "name": "Acme Atendimento",
         *       "email": "contato@acme.com.br",
         *       "phone": "+55 11 4000-1234",
         *       "document": "11222333000181",
         *       "status": true,
         *       "planId": 2,
         *       "dueDate": "2025-02-28",
         *       "recurrence": "MENSAL",
         *       "paymentMethod": null,
         *       "schedules": [
         *         {
         *           "weekday": "Domingo",
         *           "weekdayEn": "sunday",
         *           "startTimeA": "",
         *           "endTimeA": "",
         *           "startTimeB": "",
         *           "endTimeB": ""
         *         },
         *         {
         *           "weekday": "Segunda-feira",
         *           "weekdayEn": "monday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Terça-feira",
         *           "weekdayEn": "tuesday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Quarta-feira",
         *           "weekdayEn": "wednesday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Quinta-feira",
         *           "weekdayEn": "thursday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Sexta-feira",
         *           "weekdayEn": "friday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Sábado",
         *           "weekdayEn": "saturday",
         *           "startTimeA": "",
         *           "endTimeA": "",
         *           "startTimeB": "",
         *           "endTimeB": ""
         *         }
         *       ],
         *       "createdAt": "2025-01-02T09:30:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z"
         *     }
         */
        Company: {
            /** Format: date-time */
            createdAt: string;
            document: string | null;
            dueDate: string | null;
            email: string | null;
            id: number;
            name: string;
            paymentMethod: string | null;
            phone: string | null;
            planId: number;
            recurrence: string;
            schedules: components["schemas"]["BusinessHours"][];
            status: boolean;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "message": "Company deleted"
         *     }
         */
        CompanyDeleted: {
            message: string;
        };
        /**
         * @example {
         *       "companyId": 3,
         *       "publicBytes": 1048576,
         *       "privateBytes": 20480,
         *       "totalBytes": 1069056
         *     }
         */
        CompanyDiskUsage: {
            companyId: number;
            privateBytes: number;
            publicBytes: number;
            totalBytes: number;
        };
        /**
         * @example {
         *       "companies": [
         *         {
         *           "id": 3,
         *           "name": "Acme Atendimento",
         *           "email": "contato@acme.com.br",
         *           "phone": "+55 11 4000-1234",
         *           "document": "11222333000181",
         *           "status": true,
         *           "planId": 2,
         *           "dueDate": "2025-02-28",
         *           "recurrence": "MENSAL",
         *           "paymentMethod": null,
         *           "schedules": [
         *             {
         *               "weekday": "Domingo",
         *               "weekdayEn": "sunday",
         *               "startTimeA": "",
         *               "endTimeA": "",
         *               "startTimeB": "",
         *               "endTimeB": ""
         *             },
         *             {
         *               "weekday": "Segunda-feira",
         *               "weekdayEn": "monday",
         *               "startTimeA": "08:00",
         *               "endTimeA": "12:00",
         *               "startTimeB": "13:00",
         *               "endTimeB": "18:00"
         *             },
         *             {
         *               "weekday": "Terça-feira",
         *               "weekdayEn": "tuesday",
         *               "startTimeA": "08:00",
         *               "endTimeA": "12:00",
         *               "startTimeB": "13:00",
         *               "endTimeB": "18:00"
         *             },
         *             {
         *               "weekday": "Quarta-feira",
         *               "weekdayEn": "wednesday",
         *               "startTimeA": "08:00",
         *               "endTimeA": "12:00",
         *               "startTimeB": "13:00",
         *               "endTimeB": "18:00"
         *             },
         *             {
         *               "weekday": "Quinta-feira",
         *               "weekdayEn": "thursday",
         *               "startTimeA": "08:00",
         *               "endTimeA": "12:00",
         *               "startTimeB": "13:00",
         *               "endTimeB": "18:00"
         *             },
         *             {
         *               "weekday": "Sexta-feira",
         *               "weekdayEn": "friday",
         *               "startTimeA": "08:00",
         *               "endTimeA": "12:00",
         *               "startTimeB": "13:00",
         *               "endTimeB": "18:00"
         *             },
         *             {
         *               "weekday": "Sábado",
         *               "weekdayEn": "saturday",
         *               "startTimeA": "",
         *               "endTimeA": "",
         *               "startTimeB": "",
         *               "endTimeB": ""
         *             }
         *           ],
         *           "createdAt": "2025-01-02T09:30:00.000Z",
         *           "updatedAt": "2025-01-31T12:00:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        CompanyPage: {
            companies: components["schemas"]["Company"][];
            count: number;
            hasMore: boolean;
        };
        /**
         * @example {
         *       "id": 3,
         *       "name": "Acme Atendimento",
         *       "email": "contato@acme.com.br",
         *       "phone": "+55 11 4000-1234",
         *       "document": "11222333000181",
         *       "status": true,
         *       "planId": 2,
         *       "dueDate": "2025-02-28",
         *       "recurrence": "MENSAL",
         *       "paymentMethod": null,
         *       "schedules": [
         *         {
         *           "weekday": "Domingo",
         *           "weekdayEn": "sunday",
         *           "startTimeA": "",
         *           "endTimeA": "",
         *           "startTimeB": "",
         *           "endTimeB": ""
         *         },
         *         {
         *           "weekday": "Segunda-feira",
         *           "weekdayEn": "monday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Terça-feira",
         *           "weekdayEn": "tuesday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Quarta-feira",
         *           "weekdayEn": "wednesday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Quinta-feira",
         *           "weekdayEn": "thursday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Sexta-feira",
         *           "weekdayEn": "friday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Sábado",
         *           "weekdayEn": "saturday",
         *           "startTimeA": "",
         *           "endTimeA": "",
         *           "startTimeB": "",
         *           "endTimeB": ""
         *         }
         *       ],
         *       "createdAt": "2025-01-02T09:30:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z",
         *       "plan": {
         *         "id": 2,
         *         "name": "Profissional",
         *         "users": 10,
         *         "connections": 3,
         *         "queues": 5,
         *         "amount": "199.90",
         *         "recurrence": "MENSAL",
         *         "trial": true,
         *         "trialDays": 7,
         *         "isPublic": true,
         *         "useCampaigns": true,
         *         "useSchedules": true,
         *         "useInternalChat": true,
         *         "useExternalApi": false,
         *         "useKanban": true,
         *         "useOpenAi": false,
         *         "useIntegrations": false,
         *         "createdAt": "2025-01-02T09:30:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z"
         *       },
         *       "lastLogin": "2025-01-31T12:00:00.000Z"
         *     }
         */
        CompanyRow: {
            /** Format: date-time */
            createdAt: string;
            document: string | null;
            dueDate: string | null;
            email: string | null;
            id: number;
            /** Format: date-time */
            lastLogin: string | null;
            name: string;
            paymentMethod: string | null;
            phone: string | null;
            plan: components["schemas"]["CompanyRowPlan"];
            planId: number;
            recurrence: string;
            schedules: components["schemas"]["BusinessHours"][];
            status: boolean;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example [
         *       {
         *         "id": 3,
         *         "name": "Acme Atendimento",
         *         "email": "contato@acme.com.br",
         *         "phone": "+55 11 4000-1234",
         *         "document": "11222333000181",
         *         "status": true,
         *         "planId": 2,
         *         "dueDate": "2025-02-28",
         *         "recurrence": "MENSAL",
         *         "paymentMethod": null,
         *         "schedules": [
         *           {
         *             "weekday": "Domingo",
         *             "weekdayEn": "sunday",
         *             "startTimeA": "",
         *             "endTimeA": "",
         *             "startTimeB": "",
         *             "endTimeB": ""
         *           },
         *           {
         *             "weekday": "Segunda-feira",
         *             "weekdayEn": "monday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           },
         *           {
         *             "weekday": "Terça-feira",
         *             "weekdayEn": "tuesday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           },
         *           {
         *             "weekday": "Quarta-feira",
         *             "weekdayEn": "wednesday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           },
         *           {
         *             "weekday": "Quinta-feira",
         *             "weekdayEn": "thursday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           },
         *           {
         *             "weekday": "Sexta-feira",
         *             "weekdayEn": "friday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           },
         *           {
         *             "weekday": "Sábado",
         *             "weekdayEn": "saturday",
         *             "startTimeA": "",
         *             "endTimeA": "",
         *             "startTimeB": "",
         *             "endTimeB": ""
         *           }
         *         ],
         *         "createdAt": "2025-01-02T09:30:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z",
         *         "plan": {
         *           "id": 2,
         *           "name": "Profissional",
         *           "users": 10,
         *           "connections": 3,
         *           "queues": 5,
         *           "amount": "199.90",
         *           "recurrence": "MENSAL",
         *           "trial": true,
         *           "trialDays": 7,
         *           "isPublic": true,
         *           "useCampaigns": true,
         *           "useSchedules": true,
         *           "useInternalChat": true,
         *           "useExternalApi": false,
         *           "useKanban": true,
         *           "useOpenAi": false,
         *           "useIntegrations": false,
         *           "createdAt": "2025-01-02T09:30:00.000Z",
         *           "updatedAt": "2025-01-31T12:00:00.000Z"
         *         },
         *         "lastLogin": "2025-01-31T12:00:00.000Z"
         *       }
         *     ]
         */
        CompanyRowList: components["schemas"]["CompanyRow"][];
        /**
         * @example {
         *       "companies": [
         *         {
         *           "id": 3,
         *           "name": "Acme Atendimento",
         *           "email": "contato@acme.com.br",
         *           "phone": "+55 11 4000-1234",
         *           "document": "11222333000181",
         *           "status": true,
         *           "planId": 2,
         *           "dueDate": "2025-02-28",
         *           "recurrence": "MENSAL",
         *           "paymentMethod": null,
         *           "schedules": [
         *             {
         *               "weekday": "Domingo",
         *               "weekdayEn": "sunday",
         *               "startTimeA": "",
         *               "endTimeA": "",
         *               "startTimeB": "",
         *               "endTimeB": ""
         *             },
         *             {
         *               "weekday": "Segunda-feira",
         *               "weekdayEn": "monday",
         *               "startTimeA": "08:00",
         *               "endTimeA": "12:00",
         *               "startTimeB": "13:00",
         *               "endTimeB": "18:00"
         *             },
         *             {
         *               "weekday": "Terça-feira",
         *               "weekdayEn": "tuesday",
         *               "startTimeA": "08:00",
         *               "endTimeA": "12:00",
         *               "startTimeB": "13:00",
         *               "endTimeB": "18:00"
         *             },
         *             {
         *               "weekday": "Quarta-feira",
         *               "weekdayEn": "wednesday",
         *               "startTimeA": "08:00",
         *               "endTimeA": "12:00",
         *               "startTimeB": "13:00",
         *               "endTimeB": "18:00"
         *             },
         *             {
         *               "weekday": "Quinta-feira",
         *               "weekdayEn": "thursday",
         *               "startTimeA": "08:00",
         *               "endTimeA": "12:00",
         *               "startTimeB": "13:00",
         *               "endTimeB": "18:00"
         *             },
         *             {
         *               "weekday": "Sexta-feira",
         *               "weekdayEn": "friday",
         *               "startTimeA": "08:00",
         *               "endTimeA": "12:00",
         *               "startTimeB": "13:00",
         *               "endTimeB": "18:00"
         *             },
         *             {
         *               "weekday": "Sábado",
         *               "weekdayEn": "saturday",
         *               "startTimeA": "",
         *               "endTimeA": "",
         *               "startTimeB": "",
         *               "endTimeB": ""
         *             }
         *           ],
         *           "createdAt": "2025-01-02T09:30:00.000Z",
         *           "updatedAt": "2025-01-31T12:00:00.000Z",
         *           "plan": {
         *             "id": 2,
         *             "name": "Profissional",
         *             "users": 10,
         *             "connections": 3,
         *             "queues": 5,
         *             "amount": "199.90",
         *             "recurrence": "MENSAL",
         *             "trial": true,
         *             "trialDays": 7,
         *             "isPublic": true,
         *             "useCampaigns": true,
         *             "useSchedules": true,
         *             "useInternalChat": true,
         *             "useExternalApi": false,
         *             "useKanban": true,
         *             "useOpenAi": false,
         *             "useIntegrations": false,
         *             "createdAt": "2025-01-02T09:30:00.000Z",
         *             "updatedAt": "2025-01-31T12:00:00.000Z"
         *           },
         *           "lastLogin": "2025-01-31T12:00:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        CompanyRowPage: {
            companies: components["schemas"]["CompanyRow"][];
            count: number;
            hasMore: boolean;
        };
        /**
         * @example {
         *       "id": 2,
         *       "name": "Profissional",
         *       "users": 10,
         *       "connections": 3,
         *       "queues": 5,
         *       "amount": "199.90",
         *       "recurrence": "MENSAL",
         *       "trial": true,
         *       "trialDays": 7,
         *       "isPublic": true,
         *       "useCampaigns": true,
         *       "useSchedules": true,
         *       "useInternalChat": true,
         *       "useExternalApi": false,
         *       "useKanban": true,
         *       "useOpenAi": false,
         *       "useIntegrations": false,
         *       "createdAt": "2025-01-02T09:30:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z"
         *     }
         */
        CompanyRowPlan: {
            amount: string;
            connections: number;
            /** Format: date-time */
            createdAt: string;
            id: number;
            isPublic: boolean;
            name: string;
            queues: number;
            recurrence: components["schemas"]["Recurrence"];
            trial: boolean;
            trialDays: number;
            /** Format: date-time */
            updatedAt: string;
            useCampaigns: boolean;
            useExternalApi: boolean;
            useIntegrations: boolean;
            useInternalChat: boolean;
            useKanban: boolean;
            useOpenAi: boolean;
            users: number;
            useSchedules: boolean;
        } | null;
        /**
         * @example {
         *       "userRating": "disabled"
         *     }
         */
        CompanySettingOne: {
            [key: string]: string | boolean;
        };
        /**
         * @example {
         *       "companyId": "3",
         *       "userRating": "disabled",
         *       "scheduleType": "company",
         *       "timezone": "America/Sao_Paulo",
         *       "closeTicketOnTransfer": false
         *     }
         */
        CompanySettingsObject: {
            [key: string]: string | boolean;
        };
        /**
         * @example {
         *       "id": 12,
         *       "companyId": 1,
         *       "shortcut": "boas-vindas",
         *       "message": "{{ms}}, {{firstName}}! Sou {{userName}}, da {{name_company}}.",
         *       "category": "Vendas",
         *       "global": true,
         *       "userId": 3,
         *       "mediaUrl": "https://files.example.com/public/company-1/templates/0f8c1d2e-tabela.pdf",
         *       "mediaName": "tabela.pdf",
         *       "mediaType": "application/pdf",
         *       "mediaSize": 184320,
         *       "createdAt": "2026-02-01T12:00:00.000Z",
         *       "updatedAt": "2026-02-01T12:05:00.000Z"
         *     }
         */
        CompanyTemplate: {
            category: string | null;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            global: boolean;
            id: number;
            mediaName: string | null;
            mediaSize: number | null;
            mediaType: string | null;
            mediaUrl: string | null;
            message: string;
            shortcut: string;
            /** Format: date-time */
            updatedAt: string;
            userId: number | null;
        };
        /**
         * @example {
         *       "message": "Template deleted"
         *     }
         */
        CompanyTemplateDeleted: {
            /** @enum {string} */
            message: "Template deleted";
        };
        /**
         * @example {
         *       "templates": [
         *         {
         *           "id": 12,
         *           "companyId": 1,
         *           "shortcut": "boas-vindas",
         *           "message": "{{ms}}, {{firstName}}! Sou {{userName}}, da {{name_company}}.",
         *           "category": "Vendas",
         *           "global": true,
         *           "userId": 3,
         *           "mediaUrl": "https://files.example.com/public/company-1/templates/0f8c1d2e-tabela.pdf",
         *           "mediaName": "tabela.pdf",
         *           "mediaType": "application/pdf",
         *           "mediaSize": 184320,
         *           "createdAt": "2026-02-01T12:00:00.000Z",
         *           "updatedAt": "2026-02-01T12:05:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        CompanyTemplatePage: {
            count: number;
            hasMore: boolean;
            templates: components["schemas"]["CompanyTemplate"][];
        };
        /**
         * @example {
         *       "id": 12,
         *       "companyId": 1,
         *       "shortcut": "boas-vindas",
         *       "message": "{{ms}}, {{firstName}}! Sou {{userName}}, da {{name_company}}.",
         *       "category": "Vendas",
         *       "global": true,
         *       "userId": 3,
         *       "mediaUrl": "https://files.example.com/public/company-1/templates/0f8c1d2e-tabela.pdf",
         *       "mediaName": "tabela.pdf",
         *       "mediaType": "application/pdf",
         *       "mediaSize": 184320,
         *       "createdAt": "2026-02-01T12:00:00.000Z",
         *       "updatedAt": "2026-02-01T12:05:00.000Z",
         *       "rendered": "Bom dia, Carla! Sou Ana, da Loja Verde."
         *     }
         */
        CompanyTemplateRendered: {
            category: string | null;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            global: boolean;
            id: number;
            mediaName: string | null;
            mediaSize: number | null;
            mediaType: string | null;
            mediaUrl: string | null;
            message: string;
            rendered?: string;
            shortcut: string;
            /** Format: date-time */
            updatedAt: string;
            userId: number | null;
        };
        /**
         * @example {
         *       "id": 3,
         *       "name": "Acme Atendimento",
         *       "email": "contato@acme.com.br",
         *       "phone": "+55 11 4000-1234",
         *       "document": "11222333000181",
         *       "status": true,
         *       "planId": 2,
         *       "dueDate": "2025-02-28",
         *       "recurrence": "MENSAL",
         *       "paymentMethod": null,
         *       "schedules": [
         *         {
         *           "weekday": "Domingo",
         *           "weekdayEn": "sunday",
         *           "startTimeA": "",
         *           "endTimeA": "",
         *           "startTimeB": "",
         *           "endTimeB": ""
         *         },
         *         {
         *           "weekday": "Segunda-feira",
         *           "weekdayEn": "monday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Terça-feira",
         *           "weekdayEn": "tuesday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Quarta-feira",
         *           "weekdayEn": "wednesday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Quinta-feira",
         *           "weekdayEn": "thursday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Sexta-feira",
         *           "weekdayEn": "friday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         },
         *         {
         *           "weekday": "Sábado",
         *           "weekdayEn": "saturday",
         *           "startTimeA": "",
         *           "endTimeA": "",
         *           "startTimeB": "",
         *           "endTimeB": ""
         *         }
         *       ],
         *       "createdAt": "2025-01-02T09:30:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z",
         *       "plan": {
         *         "id": 2,
         *         "name": "Profissional",
         *         "users": 10,
         *         "connections": 3,
         *         "queues": 5,
         *         "amount": "199.90",
         *         "recurrence": "MENSAL",
         *         "trial": true,
         *         "trialDays": 7,
         *         "isPublic": true,
         *         "useCampaigns": true,
         *         "useSchedules": true,
         *         "useInternalChat": true,
         *         "useExternalApi": false,
         *         "useKanban": true,
         *         "useOpenAi": false,
         *         "useIntegrations": false,
         *         "createdAt": "2025-01-02T09:30:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z"
         *       }
         *     }
         */
        CompanyWithPlan: {
            /** Format: date-time */
            createdAt: string;
            document: string | null;
            dueDate: string | null;
            email: string | null;
            id: number;
            name: string;
            paymentMethod: string | null;
            phone: string | null;
            plan: components["schemas"]["CompanyRowPlan"];
            planId: number;
            recurrence: string;
            schedules: components["schemas"]["BusinessHours"][];
            status: boolean;
            /** Format: date-time */
            updatedAt: string;
        };
        Config: {
            apiKey?: string | null;
            baseUrl?: string | null;
            instructions?: string;
            maxTokens?: number;
            model?: string | null;
            /** @enum {string} */
            provider?: "openai" | "openai-compatible";
            temperature?: number;
        };
        /**
         * @example {
         *       "id": 3,
         *       "companyId": 1,
         *       "name": "Support WhatsApp",
         *       "kind": "chatapp",
         *       "channel": "chatapp",
         *       "provider": "baileys",
         *       "status": "CONNECTED",
         *       "qrcode": "",
         *       "pairingCode": null,
         *       "number": null,
         *       "greetingMessage": "Hello! How can we help?",
         *       "complationMessage": "Thanks for talking to us.",
         *       "outOfHoursMessage": null,
         *       "isDefault": true,
         *       "token": "abcd••••wxyz",
         *       "externalId": null,
         *       "reopenWindowMinutes": 0,
         *       "greetingMediaKey": null,
         *       "greetingMediaAttachment": null,
         *       "promptId": null,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-01T09:30:00.000Z"
         *     }
         */
        Connection: {
            /** @enum {string} */
            channel: "chatapp" | "socialnet" | "bizchat";
            companyId: number;
            complationMessage: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @example null */
            externalId: string | null;
            /** @example null */
            greetingMediaAttachment: string | null;
            /** @example null */
            greetingMediaKey: string | null;
            greetingMessage: string | null;
            id: number;
            isDefault: boolean;
            kind: components["schemas"]["ConnectionKind"];
            name: string;
            /** @example null */
            number: string | null;
            /** @example null */
            outOfHoursMessage: string | null;
            /** @example null */
            pairingCode: string | null;
            /** @example null */
            promptId: number | null;
            provider: components["schemas"]["ConnectionProvider"];
            qrcode: string;
            reopenWindowMinutes: number;
            status: components["schemas"]["ConnectionStatus"];
            token: string | null;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "message": "Connection deleted"
         *     }
         */
        ConnectionDeleted: {
            /** @enum {string} */
            message: "Connection deleted";
        };
        /** @enum {string} */
        ConnectionKind: "chatapp" | "socialnet" | "bizchat";
        /** @enum {string} */
        ConnectionProvider: "sandbox" | "baileys" | "messenger" | "instagram" | "cloudapi";
        /** @enum {string} */
        ConnectionStatus: "OPENING" | "qrcode" | "CONNECTED" | "DISCONNECTED" | "PENDING";
        /**
         * @example {
         *       "id": 3,
         *       "companyId": 1,
         *       "name": "Support WhatsApp",
         *       "kind": "chatapp",
         *       "channel": "chatapp",
         *       "provider": "baileys",
         *       "status": "CONNECTED",
         *       "qrcode": "",
         *       "pairingCode": null,
         *       "number": null,
         *       "greetingMessage": "Hello! How can we help?",
         *       "complationMessage": "Thanks for talking to us.",
         *       "outOfHoursMessage": null,
         *       "isDefault": true,
         *       "token": "abcd••••wxyz",
         *       "externalId": null,
         *       "reopenWindowMinutes": 0,
         *       "greetingMediaKey": null,
         *       "greetingMediaAttachment": null,
         *       "promptId": null,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-01T09:30:00.000Z",
         *       "queues": [
         *         {
         *           "id": 1,
         *           "name": "Support",
         *           "color": "#7c7c7c"
         *         }
         *       ]
         *     }
         */
        ConnectionWithQueues: {
            /** @enum {string} */
            channel: "chatapp" | "socialnet" | "bizchat";
            companyId: number;
            complationMessage: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @example null */
            externalId: string | null;
            /** @example null */
            greetingMediaAttachment: string | null;
            /** @example null */
            greetingMediaKey: string | null;
            greetingMessage: string | null;
            id: number;
            isDefault: boolean;
            kind: components["schemas"]["ConnectionKind"];
            name: string;
            /** @example null */
            number: string | null;
            /** @example null */
            outOfHoursMessage: string | null;
            /** @example null */
            pairingCode: string | null;
            /** @example null */
            promptId: number | null;
            provider: components["schemas"]["ConnectionProvider"];
            qrcode: string;
            queues: components["schemas"]["QueueSummary"][];
            reopenWindowMinutes: number;
            status: components["schemas"]["ConnectionStatus"];
            token: string | null;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "id": 7,
         *       "companyId": 1,
         *       "name": "Maria Souza",
         *       "number": "5511987654321",
         *       "email": null,
         *       "isGroup": false,
         *       "urlPicture": null,
         *       "blocked": false,
         *       "active": true,
         *       "acceptAudioMessage": true,
         *       "disableBot": false,
         *       "walletUserId": null,
         *       "linkedUserId": null,
         *       "extraInfo": [],
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z",
         *       "tags": []
         *     }
         */
        Contact: {
            acceptAudioMessage: boolean;
            active: boolean;
            blocked: boolean;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            disableBot: boolean;
            email: string | null;
            extraInfo: {
                name: string;
                value: string;
            }[];
            id: number;
            isGroup: boolean;
            linkedUserId: number | null;
            name: string;
            number: string;
            tags: components["schemas"]["TagSummary"][];
            /** Format: date-time */
            updatedAt: string;
            urlPicture: string | null;
            walletUserId: number | null;
        } | null;
        /**
         * @example {
         *       "id": 42,
         *       "name": "Maria Souza",
         *       "number": "5511988887777"
         *     }
         */
        ContactChoice: {
            id: number;
            name: string;
            number: string;
        };
        /**
         * @example [
         *       {
         *         "id": 42,
         *         "name": "Maria Souza",
         *         "number": "5511988887777"
         *       }
         *     ]
         */
        ContactChoiceList: components["schemas"]["ContactChoice"][];
        /**
         * @example {
         *       "message": "Contact deleted"
         *     }
         */
        ContactDeleted: {
            /** @enum {string} */
            message: "Contact deleted";
        };
        /**
         * @example {
         *       "id": 42,
         *       "companyId": 1,
         *       "name": "Maria Souza",
         *       "number": "5511988887777",
         *       "email": "maria@example.com",
         *       "isGroup": false,
         *       "urlPicture": null,
         *       "blocked": false,
         *       "active": true,
         *       "acceptAudioMessage": true,
         *       "disableBot": false,
         *       "walletUserId": null,
         *       "linkedUserId": null,
         *       "extraInfo": [
         *         {
         *           "name": "CPF",
         *           "value": "123.456.789-09"
         *         }
         *       ],
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-01T09:30:00.000Z",
         *       "identifiers": [
         *         {
         *           "kind": "phone",
         *           "value": "5511988887777",
         *           "pageId": null
         *         },
         *         {
         *           "kind": "lid",
         *           "value": "140211234567890",
         *           "pageId": null
         *         }
         *       ],
         *       "tags": [
         *         {
         *           "id": 7,
         *           "name": "Billing",
         *           "color": "#3b82f6",
         *           "kanban": true
         *         }
         *       ]
         *     }
         */
        ContactDetails: {
            acceptAudioMessage: boolean;
            active: boolean;
            blocked: boolean;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            disableBot: boolean;
            email: string | null;
            extraInfo: components["schemas"]["ContactExtraInfo"][];
            id: number;
            identifiers: components["schemas"]["ContactIdentifier"][];
            isGroup: boolean;
            /** @example null */
            linkedUserId: number | null;
            name: string;
            number: string;
            tags: components["schemas"]["TagSummary"][];
            /** Format: date-time */
            updatedAt: string;
            /** @example null */
            urlPicture: string | null;
            /** @example null */
            walletUserId: number | null;
        };
        /**
         * @example {
         *       "name": "CPF",
         *       "value": "123.456.789-09"
         *     }
         */
        ContactExtraInfo: {
            name: string;
            value: string;
        };
        /**
         * @example {
         *       "kind": "lid",
         *       "value": "140211234567890",
         *       "pageId": null
         *     }
         */
        ContactIdentifier: {
            /** @enum {string} */
            kind: "phone" | "lid" | "psid";
            /** @example null */
            pageId: string | null;
            value: string;
        };
        /**
         * @example {
         *       "row": 3,
         *       "reason": "ERR_INVALID_NUMBER"
         *     }
         */
        ContactImportRowError: {
            reason: string;
            row: number;
        };
        /**
         * @example {
         *       "importId": "4f1c2b8e-9d7a-4c1e-8b0a-2f6d5e3c1a90",
         *       "source": "file",
         *       "fileName": "contacts.csv",
         *       "status": "running",
         *       "total": 120,
         *       "processed": 0,
         *       "created": 0,
         *       "merged": 0,
         *       "failed": 0,
         *       "errors": [],
         *       "errorsTruncated": false,
         *       "error": null,
         *       "startedAt": "2025-02-01T09:30:00.000Z",
         *       "finishedAt": null
         *     }
         */
        ContactImportStatus: {
            created: number;
            /** @example null */
            error: string | null;
            errors: components["schemas"]["ContactImportRowError"][];
            errorsTruncated: boolean;
            failed: number;
            fileName: string | null;
            /**
             * Format: date-time
             * @example null
             */
            finishedAt: string | null;
            importId: string;
            merged: number;
            processed: number;
            /** @enum {string} */
            source: "file" | "list" | "addressBook";
            /** Format: date-time */
            startedAt: string;
            /** @enum {string} */
            status: "running" | "done" | "failed";
            total: number;
        };
        /**
         * @example {
         *       "id": 4,
         *       "companyId": 1,
         *       "name": "Clientes 2025",
         *       "contactsCount": 1190,
         *       "validCount": 1100,
         *       "invalidCount": 60,
         *       "unknownCount": 25,
         *       "errorCount": 5,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-01T09:30:08.000Z",
         *       "lastImport": {
         *         "importId": 12,
         *         "contactListId": 4,
         *         "fileName": "clientes.xlsx",
         *         "status": "done",
         *         "total": 1200,
         *         "processed": 1200,
         *         "created": 1150,
         *         "duplicates": 40,
         *         "invalid": 10,
         *         "errors": [
         *           {
         *             "row": 17,
         *             "reason": "ERR_INVALID_NUMBER"
         *           }
         *         ],
         *         "error": null,
         *         "startedAt": "2025-02-01T09:30:00.000Z",
         *         "finishedAt": "2025-02-01T09:30:08.000Z"
         *       }
         *     }
         */
        ContactList: {
            companyId: number;
            contactsCount: number;
            /** Format: date-time */
            createdAt: string;
            errorCount: number;
            id: number;
            invalidCount: number;
            /**
             * @example {
             *       "importId": 12,
             *       "contactListId": 4,
             *       "fileName": "clientes.xlsx",
             *       "status": "done",
             *       "total": 1200,
             *       "processed": 1200,
             *       "created": 1150,
             *       "duplicates": 40,
             *       "invalid": 10,
             *       "errors": [
             *         {
             *           "row": 17,
             *           "reason": "ERR_INVALID_NUMBER"
             *         }
             *       ],
             *       "error": null,
             *       "startedAt": "2025-02-01T09:30:00.000Z",
             *       "finishedAt": "2025-02-01T09:30:08.000Z"
             *     }
             */
            lastImport: {
                contactListId: number;
                created: number;
                duplicates: number;
                /** @example null */
                error: string | null;
                errors: components["schemas"]["ContactImportRowError"][];
                fileName: string;
                /** Format: date-time */
                finishedAt: string | null;
                importId: number;
                invalid: number;
                processed: number;
                /** Format: date-time */
                startedAt: string;
                /** @enum {string} */
                status: "pending" | "running" | "done" | "failed";
                total: number;
            } | null;
            name: string;
            unknownCount: number;
            /** Format: date-time */
            updatedAt: string;
            validCount: number;
        };
        /**
         * @example [
         *       {
         *         "id": 4,
         *         "companyId": 1,
         *         "name": "Clientes 2025",
         *         "contactsCount": 1190,
         *         "validCount": 1100,
         *         "invalidCount": 60,
         *         "unknownCount": 25,
         *         "errorCount": 5,
         *         "createdAt": "2025-01-31T12:00:00.000Z",
         *         "updatedAt": "2025-02-01T09:30:08.000Z",
         *         "lastImport": {
         *           "importId": 12,
         *           "contactListId": 4,
         *           "fileName": "clientes.xlsx",
         *           "status": "done",
         *           "total": 1200,
         *           "processed": 1200,
         *           "created": 1150,
         *           "duplicates": 40,
         *           "invalid": 10,
         *           "errors": [
         *             {
         *               "row": 17,
         *               "reason": "ERR_INVALID_NUMBER"
         *             }
         *           ],
         *           "error": null,
         *           "startedAt": "2025-02-01T09:30:00.000Z",
         *           "finishedAt": "2025-02-01T09:30:08.000Z"
         *         }
         *       }
         *     ]
         */
        ContactListArray: components["schemas"]["ContactList"][];
        /**
         * @example {
         *       "message": "Contact list deleted"
         *     }
         */
        ContactListDeleted: {
            /** @enum {string} */
            message: "Contact list deleted";
        };
        /**
         * @example {
         *       "importId": 12,
         *       "contactListId": 4,
         *       "fileName": "clientes.xlsx",
         *       "status": "done",
         *       "total": 1200,
         *       "processed": 1200,
         *       "created": 1150,
         *       "duplicates": 40,
         *       "invalid": 10,
         *       "errors": [
         *         {
         *           "row": 17,
         *           "reason": "ERR_INVALID_NUMBER"
         *         }
         *       ],
         *       "error": null,
         *       "startedAt": "2025-02-01T09:30:00.000Z",
         *       "finishedAt": "2025-02-01T09:30:08.000Z"
         *     }
         */
        ContactListImport: {
            contactListId: number;
            created: number;
            duplicates: number;
            /** @example null */
            error: string | null;
            errors: components["schemas"]["ContactImportRowError"][];
            fileName: string;
            /** Format: date-time */
            finishedAt: string | null;
            importId: number;
            invalid: number;
            processed: number;
            /** Format: date-time */
            startedAt: string;
            /** @enum {string} */
            status: "pending" | "running" | "done" | "failed";
            total: number;
        };
        /**
         * @example {
         *       "id": 31,
         *       "companyId": 1,
         *       "contactListId": 4,
         *       "name": "Maria Souza",
         *       "number": "5511988887777",
         *       "canonicalNumber": "5511988887777",
         *       "email": "maria@example.com",
         *       "isGroup": false,
         *       "isChatappValid": true,
         *       "validity": "valid",
         *       "validatedAt": "2025-02-01T09:31:00.000Z",
         *       "validationError": null,
         *       "variables": {
         *         "cidade": "Santos",
         *         "plano": "ouro"
         *       },
         *       "createdAt": "2025-02-01T09:30:01.000Z",
         *       "updatedAt": "2025-02-01T09:31:00.000Z"
         *     }
         */
        ContactListItem: {
            canonicalNumber: string;
            companyId: number;
            contactListId: number;
            /** Format: date-time */
            createdAt: string;
            email: string;
            id: number;
            isChatappValid: boolean;
            isGroup: boolean;
            name: string;
            number: string;
            /** Format: date-time */
            updatedAt: string;
            /** Format: date-time */
            validatedAt: string | null;
            /** @example null */
            validationError: string | null;
            /** @enum {string} */
            validity: "unknown" | "valid" | "invalid" | "error";
            /**
             * @example {
             *       "cidade": "Santos"
             *     }
             */
            variables: {
                [key: string]: string;
            };
        };
        /**
         * @example [
         *       {
         *         "id": 31,
         *         "companyId": 1,
         *         "contactListId": 4,
         *         "name": "Maria Souza",
         *         "number": "5511988887777",
         *         "canonicalNumber": "5511988887777",
         *         "email": "maria@example.com",
         *         "isGroup": false,
         *         "isChatappValid": true,
         *         "validity": "valid",
         *         "validatedAt": "2025-02-01T09:31:00.000Z",
         *         "validationError": null,
         *         "variables": {
         *           "cidade": "Santos",
         *           "plano": "ouro"
         *         },
         *         "createdAt": "2025-02-01T09:30:01.000Z",
         *         "updatedAt": "2025-02-01T09:31:00.000Z"
         *       }
         *     ]
         */
        ContactListItemArray: components["schemas"]["ContactListItem"][];
        /**
         * @example {
         *       "message": "Contact deleted"
         *     }
         */
        ContactListItemDeleted: {
            /** @enum {string} */
            message: "Contact deleted";
        };
        /**
         * @example {
         *       "contacts": [
         *         {
         *           "id": 31,
         *           "companyId": 1,
         *           "contactListId": 4,
         *           "name": "Maria Souza",
         *           "number": "5511988887777",
         *           "canonicalNumber": "5511988887777",
         *           "email": "maria@example.com",
         *           "isGroup": false,
         *           "isChatappValid": true,
         *           "validity": "valid",
         *           "validatedAt": "2025-02-01T09:31:00.000Z",
         *           "validationError": null,
         *           "variables": {
         *             "cidade": "Santos",
         *             "plano": "ouro"
         *           },
         *           "createdAt": "2025-02-01T09:30:01.000Z",
         *           "updatedAt": "2025-02-01T09:31:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        ContactListItemPage: {
            contacts: components["schemas"]["ContactListItem"][];
            count: number;
            hasMore: boolean;
        };
        /**
         * @example {
         *       "records": [
         *         {
         *           "id": 4,
         *           "companyId": 1,
         *           "name": "Clientes 2025",
         *           "contactsCount": 1190,
         *           "validCount": 1100,
         *           "invalidCount": 60,
         *           "unknownCount": 25,
         *           "errorCount": 5,
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-02-01T09:30:08.000Z",
         *           "lastImport": {
         *             "importId": 12,
         *             "contactListId": 4,
         *             "fileName": "clientes.xlsx",
         *             "status": "done",
         *             "total": 1200,
         *             "processed": 1200,
         *             "created": 1150,
         *             "duplicates": 40,
         *             "invalid": 10,
         *             "errors": [
         *               {
         *                 "row": 17,
         *                 "reason": "ERR_INVALID_NUMBER"
         *               }
         *             ],
         *             "error": null,
         *             "startedAt": "2025-02-01T09:30:00.000Z",
         *             "finishedAt": "2025-02-01T09:30:08.000Z"
         *           }
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        ContactListPage: {
            count: number;
            hasMore: boolean;
            records: components["schemas"]["ContactList"][];
        };
        /**
         * @example {
         *       "id": 42,
         *       "companyId": 1,
         *       "name": "Maria Souza",
         *       "number": "5511988887777",
         *       "email": "maria@example.com",
         *       "isGroup": false,
         *       "urlPicture": null,
         *       "blocked": false,
         *       "active": true,
         *       "acceptAudioMessage": true,
         *       "disableBot": false,
         *       "walletUserId": null,
         *       "linkedUserId": null,
         *       "extraInfo": [
         *         {
         *           "name": "CPF",
         *           "value": "123.456.789-09"
         *         }
         *       ],
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-01T09:30:00.000Z",
         *       "tags": []
         *     }
         */
        ContactListRow: {
            acceptAudioMessage: boolean;
            active: boolean;
            blocked: boolean;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            disableBot: boolean;
            email: string | null;
            extraInfo: components["schemas"]["ContactExtraInfo"][];
            id: number;
            isGroup: boolean;
            /** @example null */
            linkedUserId: number | null;
            name: string;
            number: string;
            tags?: components["schemas"]["TagSummary"][];
            /** Format: date-time */
            updatedAt: string;
            /** @example null */
            urlPicture: string | null;
            /** @example null */
            walletUserId: number | null;
        };
        /**
         * @example {
         *       "contacts": [
         *         {
         *           "id": 42,
         *           "companyId": 1,
         *           "name": "Maria Souza",
         *           "number": "5511988887777",
         *           "email": "maria@example.com",
         *           "isGroup": false,
         *           "urlPicture": null,
         *           "blocked": false,
         *           "active": true,
         *           "acceptAudioMessage": true,
         *           "disableBot": false,
         *           "walletUserId": null,
         *           "linkedUserId": null,
         *           "extraInfo": [
         *             {
         *               "name": "CPF",
         *               "value": "123.456.789-09"
         *             }
         *           ],
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-02-01T09:30:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        ContactPage: {
            contacts: components["schemas"]["ContactListRow"][];
            count: number;
            hasMore: boolean;
        };
        /**
         * @example {
         *       "number": "5511988887777",
         *       "name": "Maria",
         *       "urlPicture": "https://pps.example.net/v/t61/abc.jpg",
         *       "contactId": null,
         *       "contact": null
         *     }
         */
        ContactProfile: {
            /**
             * @example {
             *       "id": 42,
             *       "companyId": 1,
             *       "name": "Maria Souza",
             *       "number": "5511988887777",
             *       "email": "maria@example.com",
             *       "isGroup": false,
             *       "urlPicture": null,
             *       "blocked": false,
             *       "active": true,
             *       "acceptAudioMessage": true,
             *       "disableBot": false,
             *       "walletUserId": null,
             *       "linkedUserId": null,
             *       "extraInfo": [
             *         {
             *           "name": "CPF",
             *           "value": "123.456.789-09"
             *         }
             *       ],
             *       "createdAt": "2025-01-31T12:00:00.000Z",
             *       "updatedAt": "2025-02-01T09:30:00.000Z"
             *     }
             */
            contact: {
                acceptAudioMessage: boolean;
                active: boolean;
                blocked: boolean;
                companyId: number;
                /** Format: date-time */
                createdAt: string;
                disableBot: boolean;
                email: string | null;
                extraInfo: components["schemas"]["ContactExtraInfo"][];
                id: number;
                isGroup: boolean;
                /** @example null */
                linkedUserId: number | null;
                name: string;
                number: string;
                /** Format: date-time */
                updatedAt: string;
                /** @example null */
                urlPicture: string | null;
                /** @example null */
                walletUserId: number | null;
            } | null;
            /** @example null */
            contactId: number | null;
            name: string | null;
            number: string;
            urlPicture: string | null;
        };
        Contacts: {
            email?: string | number | null;
            name?: string | number | null;
            number?: string | number | null;
        }[];
        ContactsReport: {
            contacts: {
                createdAt: string;
                email: string;
                id: number;
                name: string;
                number: string;
            }[];
            count: number;
            hasMore: boolean;
        };
        /**
         * @example {
         *       "contactId": 42,
         *       "tags": [
         *         {
         *           "id": 7,
         *           "name": "Billing",
         *           "color": "#3b82f6",
         *           "kanban": true
         *         }
         *       ]
         *     }
         */
        ContactTags: {
            contactId: number;
            tags: components["schemas"]["TagSummary"][];
        };
        Dashboard: {
            attendants: components["schemas"]["DashboardAttendant"][];
            counters: components["schemas"]["DashboardCounters"];
            period: components["schemas"]["DashboardPeriod"];
            refreshedAt: string | null;
        };
        DashboardAttendant: {
            avgFirstResponseTime: number;
            avgSupportTime: number;
            avgWaitTime: number;
            closed: number;
            countRating: number;
            id: number;
            name: string;
            online: boolean;
            rating: number;
            tickets: number;
        };
        DashboardCacheCleared: {
            /** @enum {boolean} */
            cleared: true;
        };
        DashboardCounters: {
            activeTickets: number;
            avgFirstResponseTime: number;
            avgRating: number;
            avgResolutionTime: number;
            avgSupportTime: number;
            avgWaitTime: number;
            leads: number;
            npsDetractorsPerc: number;
            npsPassivePerc: number;
            npsPromotersPerc: number;
            npsScore: number;
            passiveTickets: number;
            percRating: number;
            reopened: number;
            supportFinished: number;
            supportGroups: number;
            supportHappening: number;
            supportPending: number;
            tickets: number;
            transfers: number;
            unattendedClosed: number;
            waitRating: number;
            withoutRating: number;
            withRating: number;
        };
        DashboardExtendedMetrics: {
            /** @enum {string} */
            granularity: "day" | "week" | "month";
            period: components["schemas"]["DashboardPeriod"];
            refreshedAt: string | null;
            series: {
                avgFirstResponseTime: number;
                avgResolutionTime: number;
                avgSupportTime: number;
                avgWaitTime: number;
                closed: number;
                groups: number;
                inbound: number;
                leads: number;
                outbound: number;
                period: string;
                ratings: components["schemas"]["Ratings"];
                reopened: number;
                resolutionRate: number;
                tickets: number;
                transfers: number;
                unattendedClosed: number;
            }[];
            totals: components["schemas"]["DashboardMetrics"];
        };
        DashboardMetrics: {
            avgFirstResponseTime: number;
            avgResolutionTime: number;
            avgSupportTime: number;
            avgWaitTime: number;
            closed: number;
            groups: number;
            inbound: number;
            leads: number;
            outbound: number;
            ratings: components["schemas"]["Ratings"];
            reopened: number;
            resolutionRate: number;
            tickets: number;
            transfers: number;
            unattendedClosed: number;
        };
        DashboardPeriod: {
            dateFrom: string;
            dateTo: string;
            timeZone: string;
        };
        DashboardRefresh: {
            days: number;
            refreshedAt: string;
        };
        DashboardTicketsByDay: {
            count: number;
            data: ({
                horario: string;
                total: number;
            } | {
                data: string;
                day: string;
                total: number;
            })[];
        };
        DashboardTicketsByUser: {
            data: {
                nome: string;
                quantidade: number;
                userId: number;
            }[];
        };
        DashboardTopContacts: {
            contactId: number;
            lastInteractionAt: string;
            name: string;
            number: string;
            tickets: number;
        }[];
        Data: {
            invalidText?: string;
            /** @enum {string} */
            mode?: "options" | "free";
            options?: components["schemas"]["FlowNodeQuestionDataOptions"];
            retries?: number;
            text?: string;
            timeoutSeconds?: number | null;
            /** @enum {string} */
            validation?: "text" | "number" | "email" | "phone";
            variable?: string | null;
        };
        /**
         * @example {
         *       "weekday": "Segunda-feira",
         *       "weekdayEn": "monday",
         *       "startTimeA": "08:00",
         *       "endTimeA": "12:00",
         *       "startTimeB": "13:00",
         *       "endTimeB": "18:00"
         *     }
         */
        DayHours: {
            endTimeA: string;
            endTimeB: string;
            startTimeA: string;
            startTimeB: string;
            weekday: string;
            /** @enum {string} */
            weekdayEn: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
        };
        /**
         * @example {
         *       "message": "Help deleted"
         *     }
         */
        DeletedMessage: {
            message: string;
        };
        /** @enum {string} */
        DeliveryStatus: "pending" | "sent" | "delivered" | "read" | "played" | "failed";
        Error: {
            edgeId?: string | null;
            error: string;
            fields?: {
                message: string;
                path: string;
            }[];
            nodeId?: string | null;
            reason?: string;
            /** @enum {string} */
            step?: "connect" | "write" | "read" | "delete";
        };
        ExtraInfo: {
            name: string;
            value: string;
        }[];
        /**
         * @example {
         *       "id": 7,
         *       "companyId": 1,
         *       "name": "Catálogo de vendas",
         *       "message": "Segue nosso catálogo:",
         *       "createdAt": "2026-02-01T12:00:00.000Z",
         *       "updatedAt": "2026-02-01T12:05:00.000Z",
         *       "options": [
         *         {
         *           "id": 31,
         *           "fileId": 7,
         *           "name": "Tabela de preços",
         *           "position": 0,
         *           "path": "precos-2026.pdf",
         *           "mediaType": "application/pdf",
         *           "size": 184320
         *         }
         *       ]
         *     }
         */
        FileList: {
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            id: number;
            message: string;
            name: string;
            options: components["schemas"]["FileOption"][];
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example [
         *       {
         *         "id": 7,
         *         "companyId": 1,
         *         "name": "Catálogo de vendas",
         *         "message": "Segue nosso catálogo:",
         *         "createdAt": "2026-02-01T12:00:00.000Z",
         *         "updatedAt": "2026-02-01T12:05:00.000Z",
         *         "options": [
         *           {
         *             "id": 31,
         *             "fileId": 7,
         *             "name": "Tabela de preços",
         *             "position": 0,
         *             "path": "precos-2026.pdf",
         *             "mediaType": "application/pdf",
         *             "size": 184320
         *           }
         *         ]
         *       }
         *     ]
         */
        FileListArray: components["schemas"]["FileList"][];
        /**
         * @example {
         *       "message": "File List deleted"
         *     }
         */
        FileListDeleted: {
            /** @enum {string} */
            message: "File List deleted";
        };
        /**
         * @example {
         *       "files": [
         *         {
         *           "id": 7,
         *           "companyId": 1,
         *           "name": "Catálogo de vendas",
         *           "message": "Segue nosso catálogo:",
         *           "createdAt": "2026-02-01T12:00:00.000Z",
         *           "updatedAt": "2026-02-01T12:05:00.000Z",
         *           "options": [
         *             {
         *               "id": 31,
         *               "fileId": 7,
         *               "name": "Tabela de preços",
         *               "position": 0,
         *               "path": "precos-2026.pdf",
         *               "mediaType": "application/pdf",
         *               "size": 184320
         *             }
         *           ]
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        FileListPage: {
            count: number;
            files: components["schemas"]["FileList"][];
            hasMore: boolean;
        };
        /**
         * @example {
         *       "deleted": 3
         *     }
         */
        FileListsDeleted: {
            deleted: number;
        };
        /**
         * @example {
         *       "id": 31,
         *       "fileId": 7,
         *       "name": "Tabela de preços",
         *       "position": 0,
         *       "path": "precos-2026.pdf",
         *       "mediaType": "application/pdf",
         *       "size": 184320
         *     }
         */
        FileOption: {
            fileId: number;
            id: number;
            mediaType: string | null;
            name: string;
            path: string | null;
            position: number;
            size: number | null;
        };
        /**
         * @example {
         *       "id": 3,
         *       "companyId": 1,
         *       "name": "Boas-vindas",
         *       "active": true,
         *       "triggers": [
         *         {
         *           "type": "welcome",
         *           "chatappIds": [],
         *           "keywords": []
         *         }
         *       ],
         *       "version": 7,
         *       "publishedVersion": 2,
         *       "nodeCount": 2,
         *       "createdAt": "2026-03-01T10:00:00.000Z",
         *       "updatedAt": "2026-03-02T10:00:00.000Z",
         *       "draft": {
         *         "nodes": [],
         *         "edges": []
         *       },
         *       "versions": [
         *         1,
         *         2
         *       ]
         *     }
         */
        Flow: {
            active: boolean;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            draft: components["schemas"]["FlowGraph"];
            id: number;
            name: string;
            nodeCount: number;
            publishedVersion: number | null;
            triggers: components["schemas"]["FlowSummaryTriggers"];
            /** Format: date-time */
            updatedAt: string;
            version: number;
            versions: number[];
        };
        /**
         * @example {
         *       "id": "e2",
         *       "source": "menu",
         *       "sourceHandle": "a1",
         *       "target": "orders"
         *     }
         */
        FlowEdge: {
            id: string;
            source: string;
            sourceHandle: string;
            target: string;
        };
        /**
         * @example {
         *       "nodes": [
         *         {
         *           "id": "start",
         *           "type": "start",
         *           "position": {
         *             "x": 0,
         *             "y": 0
         *           },
         *           "data": {}
         *         },
         *         {
         *           "id": "menu",
         *           "type": "question",
         *           "position": {
         *             "x": 240,
         *             "y": 0
         *           },
         *           "data": {
         *             "text": "Como podemos ajudar?",
         *             "mode": "options",
         *             "options": [
         *               {
         *                 "handle": "a1",
         *                 "label": "Pedidos"
         *               },
         *               {
         *                 "handle": "a2",
         *                 "label": "Outros"
         *               }
         *             ],
         *             "variable": "topic",
         *             "validation": "text",
         *             "retries": 2,
         *             "invalidText": "",
         *             "timeoutSeconds": null
         *           }
         *         }
         *       ],
         *       "edges": [
         *         {
         *           "id": "e1",
         *           "source": "start",
         *           "sourceHandle": "next",
         *           "target": "menu"
         *         }
         *       ]
         *     }
         */
        FlowGraph: {
            edges: components["schemas"]["FlowEdge"][];
            nodes: components["schemas"]["FlowNode"][];
        };
        /**
         * @example {
         *       "id": "menu",
         *       "type": "question",
         *       "position": {
         *         "x": 240,
         *         "y": 0
         *       },
         *       "data": {
         *         "text": "Como podemos ajudar?",
         *         "mode": "options",
         *         "options": [
         *           {
         *             "handle": "a1",
         *             "label": "Pedidos"
         *           },
         *           {
         *             "handle": "a2",
         *             "label": "Outros"
         *           }
         *         ],
         *         "variable": "topic",
         *         "validation": "text",
         *         "retries": 2,
         *         "invalidText": "",
         *         "timeoutSeconds": null
         *       }
         *     }
         */
        FlowNode: {
            data: Record<string, never>;
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "start";
        } | {
            data: {
                media: components["schemas"]["Media"];
                text: string;
                typingMs: number;
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "message";
        } | {
            data: {
                invalidText: string;
                /** @enum {string} */
                mode: "options" | "free";
                options: components["schemas"]["FlowNodeQuestionDataOptions"];
                retries: number;
                text: string;
                timeoutSeconds: number | null;
                /** @enum {string} */
                validation: "text" | "number" | "email" | "phone";
                variable: string | null;
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "question";
        } | {
            data: {
                /** @enum {string} */
                match: "all" | "any" | "first";
                rules: {
                    handle: string;
                    key: string;
                    /** @enum {string} */
                    operator: "equals" | "notEquals" | "contains" | "notContains" | "startsWith" | "endsWith" | "greaterThan" | "lessThan" | "isEmpty" | "isNotEmpty" | "isTrue" | "isFalse";
                    /** @enum {string} */
                    source: "variable" | "contact" | "businessHours";
                    value: string;
                }[];
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "condition";
        } | {
            data: {
                seconds: number;
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "interval";
        } | {
            data: {
                value: string;
                variable: string;
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "setVariable";
        } | {
            data: {
                add: number[];
                remove: number[];
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "tags";
        } | {
            data: {
                queueId: number | null;
                userId: number | null;
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "transfer";
        } | {
            data: Record<string, never>;
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "close";
        } | {
            data: {
                body: string | null;
                headers: components["schemas"]["Headers"];
                /** @enum {string} */
                method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
                save: components["schemas"]["Save"];
                timeoutMs: number;
                url: string;
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "http";
        } | {
            data: {
                integrationId: number;
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "integration";
        } | {
            data: {
                input: string;
                maxTurns: number;
                model: {
                    baseUrl: string;
                    instructions: string;
                    maxTokens: number;
                    model: string;
                    temperature: number;
                } | null;
                promptId: number | null;
                variable: string | null;
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "aiAgent";
        } | {
            data: {
                flowId: number;
            };
            id: string;
            position: components["schemas"]["FlowNodeStartPosition"];
            /** @enum {string} */
            type: "goToFlow";
        };
        FlowNodeQuestionDataOptions: {
            handle: string;
            label: string;
        }[];
        FlowNodeStartPosition: {
            x: number;
            y: number;
        };
        /**
         * @example {
         *       "flows": [
         *         {
         *           "id": 3,
         *           "companyId": 1,
         *           "name": "Boas-vindas",
         *           "active": true,
         *           "triggers": [
         *             {
         *               "type": "welcome",
         *               "chatappIds": [],
         *               "keywords": []
         *             }
         *           ],
         *           "version": 7,
         *           "publishedVersion": 2,
         *           "nodeCount": 2,
         *           "createdAt": "2026-03-01T10:00:00.000Z",
         *           "updatedAt": "2026-03-02T10:00:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        FlowPage: {
            count: number;
            flows: components["schemas"]["FlowSummary"][];
            hasMore: boolean;
        };
        /**
         * @example {
         *       "id": 12,
         *       "flowId": 3,
         *       "version": 2,
         *       "ticketId": 40,
         *       "contactId": 7,
         *       "chatappId": 1,
         *       "status": "waiting",
         *       "nodeId": "menu",
         *       "variables": {},
         *       "waitingUntil": null,
         *       "trigger": "manual",
         *       "createdAt": "2026-03-01T10:00:00.000Z",
         *       "updatedAt": "2026-03-01T10:00:00.000Z",
         *       "endedAt": null
         *     }
         */
        FlowRun: {
            chatappId: number;
            contactId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            endedAt: string | null;
            flowId: number;
            id: number;
            nodeId: string | null;
            /** @enum {string} */
            status: "running" | "waiting" | "done" | "handedOver" | "cancelled" | "failed";
            ticketId: number;
            /** @enum {string} */
            trigger: "welcome" | "keyword" | "noMatch" | "manual";
            /** Format: date-time */
            updatedAt: string;
            variables: {
                [key: string]: string;
            };
            version: number;
            /** Format: date-time */
            waitingUntil: string | null;
        };
        /**
         * @example {
         *       "flowId": 3,
         *       "version": "draft",
         *       "inputsUsed": 1,
         *       "transcript": [
         *         {
         *           "from": "bot",
         *           "text": "Como podemos ajudar?\n[1] Pedidos\n[2] Outros",
         *           "nodeId": "menu"
         *         },
         *         {
         *           "event": "wait",
         *           "nodeId": "menu",
         *           "kind": "answer",
         *           "until": null
         *         },
         *         {
         *           "from": "contact",
         *           "text": "1",
         *           "nodeId": "menu"
         *         },
         *         {
         *           "event": "transfer",
         *           "nodeId": "to",
         *           "queueId": 2,
         *           "userId": null
         *         },
         *         {
         *           "event": "end",
         *           "nodeId": "to",
         *           "status": "handedOver",
         *           "reason": "transferred"
         *         }
         *       ],
         *       "state": {
         *         "nodeId": "to",
         *         "variables": {
         *           "lastAnswer": "1",
         *           "topic": "Pedidos"
         *         },
         *         "waiting": null,
         *         "status": "handedOver",
         *         "ai": null
         *       }
         *     }
         */
        FlowSimulation: {
            flowId: number;
            inputsUsed: number;
            state: components["schemas"]["FlowState"];
            transcript: ({
                /** @enum {string} */
                from: "bot" | "contact";
                nodeId: string;
                text: string;
            } | ({
                /** @enum {string} */
                event: "sendMedia" | "setTags" | "transfer" | "close" | "wait" | "callHttp" | "callAi" | "startIntegration" | "goToFlow" | "end";
                nodeId: string;
            } & {
                [key: string]: unknown;
            }))[];
            version: "draft" | number;
        };
        FlowState: {
            ai: {
                history: {
                    content: string;
                    /** @enum {string} */
                    role: "system" | "user" | "assistant";
                }[];
                turns: number;
            } | null;
            nodeId: string | null;
            /** @enum {string} */
            status: "running" | "waiting" | "done" | "handedOver";
            variables: {
                [key: string]: string;
            };
            waiting: {
                /** @enum {string} */
                kind: "answer" | "interval" | "http" | "ai";
                retries: number;
                /** Format: date-time */
                until?: string;
            } | null;
        };
        /**
         * @example {
         *       "id": 3,
         *       "companyId": 1,
         *       "name": "Boas-vindas",
         *       "active": true,
         *       "triggers": [
         *         {
         *           "type": "welcome",
         *           "chatappIds": [],
         *           "keywords": []
         *         }
         *       ],
         *       "version": 7,
         *       "publishedVersion": 2,
         *       "nodeCount": 2,
         *       "createdAt": "2026-03-01T10:00:00.000Z",
         *       "updatedAt": "2026-03-02T10:00:00.000Z"
         *     }
         */
        FlowSummary: {
            active: boolean;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            id: number;
            name: string;
            nodeCount: number;
            publishedVersion: number | null;
            triggers: components["schemas"]["FlowSummaryTriggers"];
            /** Format: date-time */
            updatedAt: string;
            version: number;
        };
        FlowSummaryTriggers: components["schemas"]["TriggersItem"][];
        FlowVersion: {
            flowId: number;
            graph: components["schemas"]["FlowGraph"];
            /** Format: date-time */
            publishedAt: string;
            publishedBy: number | null;
            version: number;
        };
        ForwardedMessage: {
            message: components["schemas"]["Message"];
            /**
             * @example {
             *       "id": 42,
             *       "uuid": "5b0a3f4e-8f5c-4a57-9d0e-1c2b3a4d5e6f",
             *       "companyId": 1,
             *       "contactId": 7,
             *       "chatappId": 3,
             *       "status": "open",
             *       "userId": 2,
             *       "queueId": 1,
             *       "unreadMessages": 0,
             *       "lastMessage": "Thanks, that solved it!",
             *       "isGroup": false,
             *       "closedAt": null,
             *       "createdAt": "2025-01-31T12:00:00.000Z",
             *       "updatedAt": "2025-01-31T12:30:00.000Z",
             *       "queueOptionId": null,
             *       "botAttempts": 0,
             *       "botActive": false,
             *       "channel": "chatapp",
             *       "contact": {
             *         "id": 7,
             *         "companyId": 1,
             *         "name": "Maria Souza",
             *         "number": "5511987654321",
             *         "email": null,
             *         "isGroup": false,
             *         "urlPicture": null,
             *         "blocked": false,
             *         "active": true,
             *         "acceptAudioMessage": true,
             *         "disableBot": false,
             *         "walletUserId": null,
             *         "linkedUserId": null,
             *         "extraInfo": [],
             *         "createdAt": "2025-01-31T12:00:00.000Z",
             *         "updatedAt": "2025-01-31T12:00:00.000Z",
             *         "tags": []
             *       },
             *       "chatapp": {
             *         "id": 3,
             *         "name": "Support WhatsApp",
             *         "channel": "chatapp",
             *         "status": "CONNECTED",
             *         "isDefault": true
             *       },
             *       "queue": {
             *         "id": 1,
             *         "name": "Support",
             *         "color": "#0055ff"
             *       },
             *       "user": {
             *         "id": 2,
             *         "name": "Ana Operator"
             *       },
             *       "tags": [
             *         {
             *           "id": 5,
             *           "name": "VIP",
             *           "color": "#ff8800",
             *           "kanban": false
             *         }
             *       ]
             *     }
             */
            ticket: {
                botActive: boolean;
                botAttempts: number;
                /** @enum {string|null} */
                channel: "chatapp" | "socialnet" | "bizchat" | null;
                chatapp: components["schemas"]["Chatapp"];
                chatappId: number;
                /** Format: date-time */
                closedAt: string | null;
                companyId: number;
                contact: components["schemas"]["Contact"];
                contactId: number;
                /** Format: date-time */
                createdAt: string;
                id: number;
                isGroup: boolean;
                lastMessage: string;
                /**
                 * @example {
                 *       "id": 1,
                 *       "name": "Support",
                 *       "color": "#0055ff"
                 *     }
                 */
                queue: {
                    color: string;
                    id: number;
                    name: string;
                } | null;
                queueId: number | null;
                /** @example null */
                queueOptionId: number | null;
                status: components["schemas"]["TicketStatus"];
                tags: components["schemas"]["TagSummary"][];
                unreadMessages: number;
                /** Format: date-time */
                updatedAt: string;
                /**
                 * @example {
                 *       "id": 2,
                 *       "name": "Ana Operator"
                 *     }
                 */
                user: {
                    id: number;
                    name: string;
                } | null;
                userId: number | null;
                uuid: string;
            };
        };
        Headers: {
            name: string;
            value: string;
        }[];
        /**
         * @example {
         *       "id": 3,
         *       "title": "Connecting a WhatsApp number",
         *       "video": "https://videos.example.com/connect",
         *       "link": null,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-03T09:30:00.000Z"
         *     }
         */
        Help: {
            /** Format: date-time */
            createdAt: string;
            description: string;
            id: number;
            /** @example null */
            link: string | null;
            title: string;
            /** Format: date-time */
            updatedAt: string;
            video: string | null;
        };
        /**
         * @example {
         *       "helps": [
         *         {
         *           "id": 3,
         *           "title": "Connecting a WhatsApp number",
         *           "video": "https://videos.example.com/connect",
         *           "link": null,
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-02-03T09:30:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        HelpPage: {
            count: number;
            hasMore: boolean;
            helps: components["schemas"]["Help"][];
        };
        Identifiers: {
            /** @enum {string} */
            kind: "phone" | "lid" | "psid";
            pageId?: string | null;
            value: string;
        }[];
        /**
         * @example {
         *       "closed": 120
         *     }
         */
        ImportedTicketsClosed: {
            closed: number;
        };
        /**
         * @example {
         *       "id": 21,
         *       "companyId": 1,
         *       "detail": "Plan Pro, March 2025",
         *       "status": "paid",
         *       "value": "199.90",
         *       "dueDate": "2025-03-10",
         *       "paidAt": "2025-03-08T14:12:00.000Z",
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-03-08T14:12:00.000Z"
         *     }
         */
        Invoice: {
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            detail: string;
            /** Format: date */
            dueDate: string;
            id: number;
            /** Format: date-time */
            paidAt: string | null;
            /** @enum {string} */
            status: "open" | "paid" | "cancelled";
            /** Format: date-time */
            updatedAt: string;
            value: string;
        };
        /**
         * @example {
         *       "invoices": [
         *         {
         *           "id": 21,
         *           "companyId": 1,
         *           "detail": "Plan Pro, March 2025",
         *           "status": "paid",
         *           "value": "199.90",
         *           "dueDate": "2025-03-10",
         *           "paidAt": "2025-03-08T14:12:00.000Z",
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-03-08T14:12:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        InvoicePage: {
            count: number;
            hasMore: boolean;
            invoices: components["schemas"]["Invoice"][];
        };
        Items: {
            productId: number;
            quantity: number;
        }[];
        /**
         * @example {
         *       "status": "ok",
         *       "database": {
         *         "connected": true
         *       },
         *       "cache": {
         *         "connected": true
         *       },
         *       "broker": {
         *         "connected": true
         *       },
         *       "outbox": {
         *         "pending": 0,
         *         "oldestAgeSeconds": null,
         *         "bySubject": {}
         *       },
         *       "backgroundJobs": {
         *         "running": 0
         *       },
         *       "checkedAt": "2025-02-01T09:30:00.000Z"
         *     }
         */
        JobQueueHealth: {
            backgroundJobs: {
                running: number;
            };
            broker: {
                connected: boolean;
            };
            cache: {
                connected: boolean;
            };
            /** Format: date-time */
            checkedAt: string;
            database: {
                connected: boolean;
            };
            /** @enum {string} */
            error?: "ERR_DATABASE_UNAVAILABLE" | "ERR_CACHE_UNAVAILABLE" | "ERR_BROKER_UNAVAILABLE";
            outbox: {
                /** @example {} */
                bySubject: {
                    [key: string]: number;
                };
                /** @example null */
                oldestAgeSeconds: number | null;
                pending: number;
            } | null;
            /** @enum {string} */
            status: "ok" | "degraded" | "down";
        };
        /**
         * @example {
         *       "tag": {
         *         "id": 7,
         *         "companyId": 1,
         *         "name": "Waiting for customer",
         *         "color": "#3b82f6",
         *         "kanban": true,
         *         "laneOrder": 0,
         *         "createdAt": "2025-01-31T12:00:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z"
         *       },
         *       "tickets": [],
         *       "count": 0,
         *       "hasMore": false
         *     }
         */
        KanbanLane: {
            count: number;
            hasMore: boolean;
            /**
             * @example {
             *       "id": 7,
             *       "companyId": 1,
             *       "name": "Billing",
             *       "color": "#3b82f6",
             *       "kanban": true,
             *       "laneOrder": 2,
             *       "createdAt": "2025-01-31T12:00:00.000Z",
             *       "updatedAt": "2025-02-03T09:30:00.000Z"
             *     }
             */
            tag: {
                color: string;
                companyId: number;
                /** Format: date-time */
                createdAt: string;
                id: number;
                kanban: boolean;
                laneOrder: number;
                name: string;
                /** Format: date-time */
                updatedAt: string;
            } | null;
            tickets: components["schemas"]["TicketDetails"][];
        };
        /**
         * @example {
         *       "lista": [
         *         {
         *           "id": 7,
         *           "companyId": 1,
         *           "name": "Billing",
         *           "color": "#3b82f6",
         *           "kanban": true,
         *           "laneOrder": 2,
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-02-03T09:30:00.000Z"
         *         }
         *       ]
         *     }
         */
        KanbanLaneTags: {
            lista: components["schemas"]["Tag"][];
        };
        /**
         * @example {
         *       "message": "Logged out"
         *     }
         */
        LoggedOut: {
            message: string;
        };
        /**
         * @example {
         *       "token": "eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOjd9.c2lnbmF0dXJl",
         *       "user": {
         *         "id": 7,
         *         "companyId": 1,
         *         "name": "Maria Souza",
         *         "email": "maria@acme.com.br",
         *         "profile": "admin",
         *         "mustChangePassword": false,
         *         "online": true,
         *         "profileImage": "7-1f0c.png",
         *         "allTicket": "enable",
         *         "defaultTicketsManagerWidth": 550,
         *         "defaultTheme": "light",
         *         "defaultMenu": "open",
         *         "startWork": "08:00",
         *         "endWork": "18:00",
         *         "farewellMessage": null,
         *         "chatappId": 2,
         *         "allHistoric": "disabled",
         *         "allUserChat": "disabled",
         *         "userClosePendingTicket": "enabled",
         *         "showDashboard": "disabled",
         *         "allowRealTime": "disabled",
         *         "allowConnections": "disabled",
         *         "allowGroup": false,
         *         "super": false,
         *         "lastLoginAt": "2025-01-31T12:00:00.000Z",
         *         "createdAt": "2025-01-02T09:30:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z",
         *         "queues": [
         *           {
         *             "id": 4,
         *             "name": "Suporte",
         *             "color": "#0055ff",
         *             "UserQueue": {
         *               "userId": 7,
         *               "queueId": 4
         *             }
         *           }
         *         ],
         *         "company": {
         *           "id": 1,
         *           "name": "Acme Atendimento",
         *           "email": "contato@acme.com.br",
         *           "phone": null,
         *           "document": null,
         *           "status": true,
         *           "planId": 2,
         *           "dueDate": "2025-02-28",
         *           "recurrence": "MENSAL",
         *           "paymentMethod": null
         *         }
         *       },
         *       "mustChangePassword": false
         *     }
         */
        LoginResult: {
            mustChangePassword: boolean;
            token: string;
            user: components["schemas"]["UserDetails"];
        };
        /**
         * @example {
         *       "name": "Nome",
         *       "number": "Telefone"
         *     }
         */
        Mapping: {
            email?: string | number;
            name?: string | number;
            number?: string | number;
        };
        Media: {
            fileListId: number;
            fileOptionId: number | null;
        } | null;
        /**
         * @example {
         *       "id": "3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c",
         *       "companyId": 1,
         *       "ticketId": 42,
         *       "contactId": 7,
         *       "chatappId": 3,
         *       "providerMessageId": "3EB0C767D26A1D8E",
         *       "fromMe": true,
         *       "body": "Your invoice is attached.",
         *       "media": null,
         *       "status": "delivered",
         *       "failureReason": null,
         *       "quotedMessageId": null,
         *       "isPrivate": false,
         *       "userId": 2,
         *       "createdAt": "2025-01-31T12:10:00.000Z",
         *       "updatedAt": "2025-01-31T12:10:02.000Z",
         *       "isDeleted": false,
         *       "isEdited": false,
         *       "editedAt": null,
         *       "transcription": null,
         *       "ack": 2,
         *       "mediaUrl": null,
         *       "mediaType": "conversation",
         *       "read": true,
         *       "quotedMsg": null,
         *       "contact": {
         *         "id": 7,
         *         "name": "Maria Souza",
         *         "number": "5511987654321",
         *         "urlPicture": null
         *       },
         *       "ticket": {
         *         "id": 42,
         *         "uuid": "5b0a3f4e-8f5c-4a57-9d0e-1c2b3a4d5e6f",
         *         "status": "open",
         *         "userId": 2,
         *         "queueId": 1,
         *         "chatappId": 3,
         *         "queue": {
         *           "id": 1,
         *           "name": "Support",
         *           "color": "#0055ff"
         *         }
         *       }
         *     }
         */
        Message: {
            ack: number;
            body: string;
            chatappId: number;
            companyId: number;
            /**
             * @example {
             *       "id": 7,
             *       "name": "Maria Souza",
             *       "number": "5511987654321",
             *       "urlPicture": null
             *     }
             */
            contact: {
                id: number;
                name: string;
                number: string;
                urlPicture: string | null;
            } | null;
            contactId: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            editedAt: string | null;
            failureReason: string | null;
            fromMe: boolean;
            id: string;
            isDeleted: boolean;
            isEdited: boolean;
            isPrivate: boolean;
            media: components["schemas"]["MessageMedia"];
            mediaType: string;
            mediaUrl: string | null;
            providerMessageId: string | null;
            quotedMessageId: string | null;
            /**
             * @example {
             *       "id": "3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c",
             *       "body": "Can you send the invoice?",
             *       "fromMe": false,
             *       "mediaUrl": null,
             *       "mediaType": "conversation",
             *       "isDeleted": false,
             *       "createdAt": "2025-01-31T12:09:00.000Z",
             *       "contact": {
             *         "id": 7,
             *         "name": "Maria Souza",
             *         "number": "5511987654321",
             *         "urlPicture": null
             *       }
             *     }
             */
            quotedMsg: {
                body: string;
                contact: components["schemas"]["MessageContact"];
                /** Format: date-time */
                createdAt: string;
                fromMe: boolean;
                id: string;
                isDeleted: boolean;
                mediaType: string;
                mediaUrl: string | null;
            } | null;
            read: boolean;
            status: components["schemas"]["DeliveryStatus"];
            /**
             * @example {
             *       "id": 42,
             *       "uuid": "5b0a3f4e-8f5c-4a57-9d0e-1c2b3a4d5e6f",
             *       "status": "open",
             *       "userId": 2,
             *       "queueId": 1,
             *       "chatappId": 3,
             *       "queue": {
             *         "id": 1,
             *         "name": "Support",
             *         "color": "#0055ff"
             *       }
             *     }
             */
            ticket: {
                chatappId: number;
                id: number;
                queue: {
                    color: string;
                    id: number;
                    name: string;
                } | null;
                queueId: number | null;
                status: string;
                userId: number | null;
                uuid: string;
            } | null;
            ticketId: number;
            transcription: string | null;
            /** Format: date-time */
            updatedAt: string;
            userId: number | null;
        };
        /**
         * @example {
         *       "id": 7,
         *       "name": "Maria Souza",
         *       "number": "5511987654321",
         *       "urlPicture": null
         *     }
         */
        MessageContact: {
            id: number;
            name: string;
            number: string;
            urlPicture: string | null;
        } | null;
        /**
         * @example {
         *       "count": [
         *         {
         *           "count": 128
         *         }
         *       ]
         *     }
         */
        MessageCount: {
            count: {
                count: number;
            }[];
        };
        /**
         * @example {
         *       "key": "public/company-1/media/0f8c1d2e-invoice.pdf",
         *       "url": "https://files.example.com/public/company-1/media/0f8c1d2e-invoice.pdf",
         *       "contentType": "application/pdf",
         *       "filename": "invoice.pdf",
         *       "size": 48213
         *     }
         */
        MessageMedia: {
            contentType: string;
            error?: string;
            filename: string;
            key: string;
            size: number;
            /** @enum {string} */
            status?: "pending" | "failed";
            url: string;
        } | null;
        /**
         * @example {
         *       "messages": [
         *         {
         *           "id": "3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c",
         *           "companyId": 1,
         *           "ticketId": 42,
         *           "contactId": 7,
         *           "chatappId": 3,
         *           "providerMessageId": "3EB0C767D26A1D8E",
         *           "fromMe": true,
         *           "body": "Your invoice is attached.",
         *           "media": null,
         *           "status": "delivered",
         *           "failureReason": null,
         *           "quotedMessageId": null,
         *           "isPrivate": false,
         *           "userId": 2,
         *           "createdAt": "2025-01-31T12:10:00.000Z",
         *           "updatedAt": "2025-01-31T12:10:02.000Z",
         *           "isDeleted": false,
         *           "isEdited": false,
         *           "editedAt": null,
         *           "transcription": null,
         *           "ack": 2,
         *           "mediaUrl": null,
         *           "mediaType": "conversation",
         *           "read": true,
         *           "quotedMsg": null,
         *           "contact": {
         *             "id": 7,
         *             "name": "Maria Souza",
         *             "number": "5511987654321",
         *             "urlPicture": null
         *           },
         *           "ticket": {
         *             "id": 42,
         *             "uuid": "5b0a3f4e-8f5c-4a57-9d0e-1c2b3a4d5e6f",
         *             "status": "open",
         *             "userId": 2,
         *             "queueId": 1,
         *             "chatappId": 3,
         *             "queue": {
         *               "id": 1,
         *               "name": "Support",
         *               "color": "#0055ff"
         *             }
         *           }
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        MessagePage: {
            count: number;
            hasMore: boolean;
            messages: components["schemas"]["Message"][];
        };
        /**
         * @example {
         *       "count": 9021,
         *       "dateFrom": "2025-03-01T00:00:00.000Z",
         *       "dateTo": "2025-03-31T23:59:59.999Z"
         *     }
         */
        MessageRangeCount: {
            count: number;
            /** Format: date-time */
            dateFrom: string;
            /** Format: date-time */
            dateTo: string;
        };
        Moved: {
            chatappId: number;
            from: number | null;
            to: number | null;
        }[];
        /**
         * @example {
         *       "id": 3,
         *       "companyId": 1,
         *       "name": "Media on R2",
         *       "provider": "r2",
         *       "endpoint": "https://0123456789abcdef.r2.cloudflarestorage.com",
         *       "region": "auto",
         *       "bucket": "desk-media",
         *       "prefix": "loja-exemplo",
         *       "forcePathStyle": false,
         *       "publicBaseUrl": "https://media.loja-exemplo.com.br",
         *       "accessKeyId": "a1b2c3d4e5f6",
         *       "hasSecret": true,
         *       "secretLast4": "x9Qe",
         *       "active": true,
         *       "createdAt": "2025-11-27T18:00:00.000Z",
         *       "updatedAt": "2025-11-27T18:00:00.000Z"
         *     }
         */
        ObjstoreConfig: {
            accessKeyId: string;
            active: boolean;
            bucket: string;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            endpoint: string;
            forcePathStyle: boolean;
            hasSecret: boolean;
            id: number;
            name: string;
            prefix: string;
            /** @enum {string} */
            provider: "s3" | "minio" | "r2" | "wasabi" | "spaces" | "other";
            publicBaseUrl: string | null;
            region: string;
            secretLast4: string | null;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example [
         *       {
         *         "id": 3,
         *         "companyId": 1,
         *         "name": "Media on R2",
         *         "provider": "r2",
         *         "endpoint": "https://0123456789abcdef.r2.cloudflarestorage.com",
         *         "region": "auto",
         *         "bucket": "desk-media",
         *         "prefix": "loja-exemplo",
         *         "forcePathStyle": false,
         *         "publicBaseUrl": "https://media.loja-exemplo.com.br",
         *         "accessKeyId": "a1b2c3d4e5f6",
         *         "hasSecret": true,
         *         "secretLast4": "x9Qe",
         *         "active": true,
         *         "createdAt": "2025-11-27T18:00:00.000Z",
         *         "updatedAt": "2025-11-27T18:00:00.000Z"
         *       }
         *     ]
         */
        ObjstoreConfigList: components["schemas"]["ObjstoreConfig"][];
        /**
         * @example {
         *       "ok": true,
         *       "latencyMs": 184,
         *       "canWrite": true,
         *       "canRead": true,
         *       "canDelete": true
         *     }
         */
        ObjstoreConnectionTest: {
            /** @enum {boolean} */
            canDelete: true;
            /** @enum {boolean} */
            canRead: true;
            /** @enum {boolean} */
            canWrite: true;
            latencyMs: number;
            /** @enum {boolean} */
            ok: true;
        };
        /**
         * @example {
         *       "company": {
         *         "id": 3,
         *         "name": "Acme Atendimento",
         *         "email": "contato@acme.com.br",
         *         "phone": "+55 11 4000-1234",
         *         "document": "11222333000181",
         *         "status": true,
         *         "planId": 2,
         *         "dueDate": "2025-02-28",
         *         "recurrence": "MENSAL",
         *         "paymentMethod": null,
         *         "schedules": [
         *           {
         *             "weekday": "Domingo",
         *             "weekdayEn": "sunday",
         *             "startTimeA": "",
         *             "endTimeA": "",
         *             "startTimeB": "",
         *             "endTimeB": ""
         *           },
         *           {
         *             "weekday": "Segunda-feira",
         *             "weekdayEn": "monday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           },
         *           {
         *             "weekday": "Terça-feira",
         *             "weekdayEn": "tuesday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           },
         *           {
         *             "weekday": "Quarta-feira",
         *             "weekdayEn": "wednesday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           },
         *           {
         *             "weekday": "Quinta-feira",
         *             "weekdayEn": "thursday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           },
         *           {
         *             "weekday": "Sexta-feira",
         *             "weekdayEn": "friday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           },
         *           {
         *             "weekday": "Sábado",
         *             "weekdayEn": "saturday",
         *             "startTimeA": "",
         *             "endTimeA": "",
         *             "startTimeB": "",
         *             "endTimeB": ""
         *           }
         *         ],
         *         "createdAt": "2025-01-02T09:30:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z"
         *       },
         *       "user": {
         *         "id": 12,
         *         "companyId": 3,
         *         "name": "João Lima",
         *         "email": "joao@acme.com.br",
         *         "profile": "admin",
         *         "mustChangePassword": false,
         *         "online": false,
         *         "profileImage": null,
         *         "allTicket": "enable",
         *         "defaultTicketsManagerWidth": 550,
         *         "defaultTheme": "light",
         *         "defaultMenu": "open",
         *         "startWork": null,
         *         "endWork": null,
         *         "farewellMessage": null,
         *         "chatappId": null,
         *         "allHistoric": "disabled",
         *         "allUserChat": "disabled",
         *         "userClosePendingTicket": "enabled",
         *         "showDashboard": "disabled",
         *         "allowRealTime": "disabled",
         *         "allowConnections": "disabled",
         *         "allowGroup": false,
         *         "super": false,
         *         "lastLoginAt": null,
         *         "createdAt": "2025-01-31T12:00:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z"
         *       }
         *     }
         */
        OnboardedCompany: {
            company: components["schemas"]["Company"];
            user: components["schemas"]["User"];
        };
        /**
         * @example {
         *       "optimizedPrompt": "Você é o atendente virtual da Loja Exemplo…"
         *     }
         */
        OptimizedPrompt: {
            optimizedPrompt: string;
        };
        Options: {
            id?: number;
            name?: string | null;
        }[];
        /**
         * @example {
         *       "id": 7,
         *       "number": 42,
         *       "companyId": 1,
         *       "contactId": 15,
         *       "contact": {
         *         "id": 15,
         *         "name": "Maria Souza",
         *         "number": "5511988887777"
         *       },
         *       "ticketId": 230,
         *       "userId": 3,
         *       "user": {
         *         "id": 3,
         *         "name": "Ana"
         *       },
         *       "status": "confirmed",
         *       "currency": "BRL",
         *       "subtotal": 9980,
         *       "discount": 500,
         *       "shippingFee": 1500,
         *       "total": 10980,
         *       "paymentMethod": "Pix",
         *       "notes": "Embrulhar para presente",
         *       "address": "Rua das Flores, 120, ap. 31 — São Paulo/SP, 01234-000",
         *       "items": [
         *         {
         *           "id": 31,
         *           "productId": 12,
         *           "name": "Vaso de cerâmica M",
         *           "sku": "VASO-M",
         *           "unitPrice": 4990,
         *           "quantity": 2,
         *           "total": 9980
         *         }
         *       ],
         *       "createdAt": "2026-03-02T14:05:00.000Z",
         *       "updatedAt": "2026-03-02T14:20:00.000Z"
         *     }
         */
        Order: {
            address: string | null;
            companyId: number;
            contact: {
                id: number;
                name: string;
                number: string;
            } | null;
            contactId: number | null;
            /** Format: date-time */
            createdAt: string;
            currency: string;
            discount: number;
            id: number;
            items: components["schemas"]["OrderItem"][];
            notes: string;
            number: number;
            paymentMethod: string | null;
            shippingFee: number;
            /** @enum {string} */
            status: "new" | "confirmed" | "paid" | "shipped" | "delivered" | "cancelled";
            subtotal: number;
            ticketId: number | null;
            total: number;
            /** Format: date-time */
            updatedAt: string;
            user: components["schemas"]["ScheduleUser"];
            userId: number | null;
        };
        /**
         * @example {
         *       "id": 31,
         *       "productId": 12,
         *       "name": "Vaso de cerâmica M",
         *       "sku": "VASO-M",
         *       "unitPrice": 4990,
         *       "quantity": 2,
         *       "total": 9980
         *     }
         */
        OrderItem: {
            id: number;
            name: string;
            productId: number | null;
            quantity: number;
            sku: string | null;
            total: number;
            unitPrice: number;
        };
        /**
         * @example {
         *       "id": 90,
         *       "orderId": 7,
         *       "userId": 3,
         *       "user": {
         *         "id": 3,
         *         "name": "Ana"
         *       },
         *       "type": "status",
         *       "from": "new",
         *       "to": "confirmed",
         *       "data": {
         *         "message": {
         *           "messageId": "9b1f0c1e-2d4a-4f7e-8c1b-3a5d6e7f8091",
         *           "ticketId": 230
         *         }
         *       },
         *       "createdAt": "2026-03-02T14:20:00.000Z"
         *     }
         */
        OrderLog: {
            /** Format: date-time */
            createdAt: string;
            data: {
                [key: string]: unknown;
            };
            from: string | null;
            id: number;
            orderId: number;
            to: string | null;
            /** @enum {string} */
            type: "created" | "status" | "items" | "note";
            user: components["schemas"]["ScheduleUser"];
            userId: number | null;
        };
        OrderLogList: components["schemas"]["OrderLog"][];
        /**
         * @example {
         *       "orders": [
         *         {
         *           "id": 7,
         *           "number": 42,
         *           "companyId": 1,
         *           "contactId": 15,
         *           "contact": {
         *             "id": 15,
         *             "name": "Maria Souza",
         *             "number": "5511988887777"
         *           },
         *           "ticketId": 230,
         *           "userId": 3,
         *           "user": {
         *             "id": 3,
         *             "name": "Ana"
         *           },
         *           "status": "confirmed",
         *           "currency": "BRL",
         *           "subtotal": 9980,
         *           "discount": 500,
         *           "shippingFee": 1500,
         *           "total": 10980,
         *           "paymentMethod": "Pix",
         *           "notes": "Embrulhar para presente",
         *           "address": "Rua das Flores, 120, ap. 31 — São Paulo/SP, 01234-000",
         *           "items": [
         *             {
         *               "id": 31,
         *               "productId": 12,
         *               "name": "Vaso de cerâmica M",
         *               "sku": "VASO-M",
         *               "unitPrice": 4990,
         *               "quantity": 2,
         *               "total": 9980
         *             }
         *           ],
         *           "createdAt": "2026-03-02T14:05:00.000Z",
         *           "updatedAt": "2026-03-02T14:20:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        OrderPage: {
            count: number;
            hasMore: boolean;
            orders: components["schemas"]["Order"][];
        };
        /**
         * @example {
         *       "deleted": 2,
         *       "ids": [
         *         7,
         *         8
         *       ]
         *     }
         */
        OrdersDeleted: {
            deleted: number;
            ids: number[];
        };
        /**
         * @example {
         *       "id": 2,
         *       "companyId": 1,
         *       "connectionId": null,
         *       "connection": null,
         *       "currency": "BRL",
         *       "paymentInstructions": "Pix: pagamentos@loja.example (CNPJ 12.345.678/0001-90)",
         *       "statusMessages": {
         *         "confirmed": "Olá {{firstName}}! Seu pedido #{{number}} foi confirmado. Total: {{total}}.\n{{payment}}",
         *         "paid": "Pagamento do pedido #{{number}} recebido, obrigado!",
         *         "shipped": "Seu pedido #{{number}} saiu para entrega.",
         *         "delivered": "",
         *         "cancelled": "Seu pedido #{{number}} foi cancelado."
         *       },
         *       "createdAt": "2026-03-01T10:00:00.000Z",
         *       "updatedAt": "2026-03-01T10:00:00.000Z"
         *     }
         */
        OrderSetting: {
            companyId: number;
            connection: components["schemas"]["ScheduleUser"];
            connectionId: number | null;
            /** Format: date-time */
            createdAt: string;
            currency: string;
            id: number;
            paymentInstructions: string;
            statusMessages: {
                cancelled: string;
                confirmed: string;
                delivered: string;
                paid: string;
                shipped: string;
            };
            /** Format: date-time */
            updatedAt: string;
        };
        OrderSettingList: components["schemas"]["OrderSetting"][];
        /**
         * @example {
         *       "id": 5,
         *       "name": "Acme Resellers",
         *       "email": "sales@acme.example",
         *       "phone": "+55 11 91234-5678",
         *       "document": "11222333000181",
         *       "commission": "10.00",
         *       "typeCommission": "percent",
         *       "walletId": "wal_8f2c",
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-03T09:30:00.000Z"
         *     }
         */
        Partner: {
            commission: string;
            /** Format: date-time */
            createdAt: string;
            document: string | null;
            email: string | null;
            id: number;
            name: string;
            phone: string | null;
            /** @enum {string} */
            typeCommission: "percent" | "fixed";
            /** Format: date-time */
            updatedAt: string;
            walletId: string | null;
        };
        /**
         * @example {
         *       "partners": [
         *         {
         *           "id": 5,
         *           "name": "Acme Resellers",
         *           "email": "sales@acme.example",
         *           "phone": "+55 11 91234-5678",
         *           "document": "11222333000181",
         *           "commission": "10.00",
         *           "typeCommission": "percent",
         *           "walletId": "wal_8f2c",
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-02-03T09:30:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        PartnerPage: {
            count: number;
            hasMore: boolean;
            partners: components["schemas"]["Partner"][];
        };
        /**
         * @example {
         *       "email": "ana@lojaexemplo.com.br"
         *     }
         */
        PasswordReset: {
            email: string;
        };
        /**
         * @example {
         *       "message": "If this e-mail belongs to an account, a reset link is on its way"
         *     }
         */
        PasswordResetRequested: {
            message: string;
        };
        /**
         * @example {
         *       "ok": true
         *     }
         */
        PaymentNotificationReceipt: {
            /** @enum {boolean} */
            ok: true;
        };
        /**
         * @example {
         *       "invoiceId": 12,
         *       "chargeId": 3,
         *       "status": "pending",
         *       "amount": "99.90",
         *       "expiresAt": "2026-05-08T14:00:00.000Z",
         *       "pix": {
         *         "copyPaste": "00020126580014br.gov.bcb.pix0136a1b2c3d4-e5f6-47a8-99b0-c1d2e3f4a5b65204000053039865406199.905802BR6304ABCD",
         *         "qrCodePng": "iVBORw0KGgoAAAANSUhEUgAA…"
         *       }
         *     }
         */
        PixCharge: {
            amount: string;
            chargeId: number;
            /** Format: date-time */
            expiresAt: string;
            invoiceId: number;
            pix: {
                copyPaste: string;
                qrCodePng: string;
            };
            /** @enum {string} */
            status: "pending" | "paid" | "cancelled" | "expired" | "refunded";
        };
        /**
         * @example {
         *       "id": 2,
         *       "name": "Profissional",
         *       "users": 10,
         *       "connections": 3,
         *       "queues": 5,
         *       "amount": "199.90",
         *       "recurrence": "MENSAL",
         *       "trial": true,
         *       "trialDays": 7,
         *       "isPublic": true,
         *       "useCampaigns": true,
         *       "useSchedules": true,
         *       "useInternalChat": true,
         *       "useExternalApi": false,
         *       "useKanban": true,
         *       "useOpenAi": false,
         *       "useIntegrations": false,
         *       "createdAt": "2025-01-02T09:30:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z"
         *     }
         */
        Plan: {
            amount: string;
            connections: number;
            /** Format: date-time */
            createdAt: string;
            id: number;
            isPublic: boolean;
            name: string;
            queues: number;
            recurrence: components["schemas"]["Recurrence"];
            trial: boolean;
            trialDays: number;
            /** Format: date-time */
            updatedAt: string;
            useCampaigns: boolean;
            useExternalApi: boolean;
            useIntegrations: boolean;
            useInternalChat: boolean;
            useKanban: boolean;
            useOpenAi: boolean;
            users: number;
            useSchedules: boolean;
        };
        /**
         * @example {
         *       "message": "Plan deleted"
         *     }
         */
        PlanDeleted: {
            message: string;
        };
        /**
         * @example [
         *       {
         *         "id": 2,
         *         "name": "Profissional",
         *         "users": 10,
         *         "connections": 3,
         *         "queues": 5,
         *         "amount": "199.90",
         *         "recurrence": "MENSAL",
         *         "trial": true,
         *         "trialDays": 7,
         *         "isPublic": true,
         *         "useCampaigns": true,
         *         "useSchedules": true,
         *         "useInternalChat": true,
         *         "useExternalApi": false,
         *         "useKanban": true,
         *         "useOpenAi": false,
         *         "useIntegrations": false,
         *         "createdAt": "2025-01-02T09:30:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z"
         *       }
         *     ]
         */
        PlanList: components["schemas"]["Plan"][];
        /**
         * @example {
         *       "id": 42,
         *       "companyId": 1,
         *       "name": "Maria Souza",
         *       "number": "5511912345678",
         *       "email": "maria@example.com",
         *       "createdAt": "2025-01-31T12:00:00.000Z"
         *     }
         */
        PlatformContact: {
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            email: string | null;
            id: number;
            name: string;
            number: string;
        };
        /**
         * @example {
         *       "count": 1532
         *     }
         */
        PlatformContactCount: {
            count: number;
        };
        /**
         * @example {
         *       "contacts": [
         *         {
         *           "id": 42,
         *           "companyId": 1,
         *           "name": "Maria Souza",
         *           "number": "5511912345678",
         *           "email": "maria@example.com",
         *           "createdAt": "2025-01-31T12:00:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        PlatformContactPage: {
            contacts: components["schemas"]["PlatformContact"][];
            count: number;
            hasMore: boolean;
        };
        Position: {
            x: number;
            y: number;
        };
        /**
         * @example {
         *       "phoneNumber": "5511999990000"
         *     }
         */
        PostChatappsessionByChatappIdBody: {
            phoneNumber?: string;
        };
        /**
         * @example {
         *       "key": "paymentCertificate",
         *       "stored": true,
         *       "size": 2048
         *     }
         */
        PrivateSettingFile: {
            key: string;
            size: number;
            /** @enum {boolean} */
            stored: true;
        };
        /**
         * @example {
         *       "id": 7,
         *       "companyId": 1,
         *       "name": "Café especial 250 g",
         *       "sku": "CAF-250",
         *       "price": 3490,
         *       "currency": "BRL",
         *       "stock": 18,
         *       "trackStock": true,
         *       "active": true,
         *       "categoryId": 3,
         *       "category": {
         *         "id": 3,
         *         "name": "Cafés"
         *       },
         *       "images": [
         *         {
         *           "id": 12,
         *           "url": "https://files.example.com/public/company-1/products/7/3f1c.png",
         *           "contentType": "image/png",
         *           "size": 48213,
         *           "position": 0,
         *           "createdAt": "2026-02-01T12:00:00.000Z"
         *         }
         *       ],
         *       "createdAt": "2026-02-01T12:00:00.000Z",
         *       "updatedAt": "2026-02-03T09:30:00.000Z"
         *     }
         */
        Product: {
            active: boolean;
            category: components["schemas"]["ScheduleUser"];
            categoryId: number | null;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            currency: string;
            description: string;
            id: number;
            images: components["schemas"]["ProductImage"][];
            name: string;
            price: number;
            sku: string | null;
            stock: number;
            trackStock: boolean;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "id": 12,
         *       "url": "https://files.example.com/public/company-1/products/7/3f1c.png",
         *       "contentType": "image/png",
         *       "size": 48213,
         *       "position": 0,
         *       "createdAt": "2026-02-01T12:00:00.000Z"
         *     }
         */
        ProductImage: {
            contentType: string;
            /** Format: date-time */
            createdAt: string;
            id: number;
            position: number;
            size: number;
            url: string;
        };
        /**
         * @example {
         *       "id": 5,
         *       "status": "completed",
         *       "mode": "upsert",
         *       "fileName": "produtos.xlsx",
         *       "total": 120,
         *       "processed": 120,
         *       "created": 100,
         *       "updated": 18,
         *       "skipped": 0,
         *       "failed": 2,
         *       "errors": [
         *         {
         *           "row": 14,
         *           "field": "price",
         *           "error": "ERR_PRODUCT_INVALID_PRICE"
         *         },
         *         {
         *           "row": 90,
         *           "field": "sku",
         *           "error": "ERR_PRODUCT_IMPORT_DUPLICATE_SKU"
         *         }
         *       ],
         *       "error": null,
         *       "createdAt": "2026-02-04T10:00:00.000Z",
         *       "startedAt": "2026-02-04T10:00:01.000Z",
         *       "finishedAt": "2026-02-04T10:00:03.000Z"
         *     }
         */
        ProductImport: {
            created: number;
            /** Format: date-time */
            createdAt: string;
            error: string | null;
            errors: {
                error: string;
                field: string;
                row: number;
            }[];
            failed: number;
            fileName: string;
            /** Format: date-time */
            finishedAt: string | null;
            id: number;
            /** @enum {string} */
            mode: "create" | "upsert";
            processed: number;
            skipped: number;
            /** Format: date-time */
            startedAt: string | null;
            /** @enum {string} */
            status: "queued" | "processing" | "completed" | "failed";
            total: number;
            updated: number;
        };
        /**
         * @example {
         *       "products": [
         *         {
         *           "id": 7,
         *           "companyId": 1,
         *           "name": "Café especial 250 g",
         *           "sku": "CAF-250",
         *           "price": 3490,
         *           "currency": "BRL",
         *           "stock": 18,
         *           "trackStock": true,
         *           "active": true,
         *           "categoryId": 3,
         *           "category": {
         *             "id": 3,
         *             "name": "Cafés"
         *           },
         *           "images": [
         *             {
         *               "id": 12,
         *               "url": "https://files.example.com/public/company-1/products/7/3f1c.png",
         *               "contentType": "image/png",
         *               "size": 48213,
         *               "position": 0,
         *               "createdAt": "2026-02-01T12:00:00.000Z"
         *             }
         *           ],
         *           "createdAt": "2026-02-01T12:00:00.000Z",
         *           "updatedAt": "2026-02-03T09:30:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        ProductPage: {
            count: number;
            hasMore: boolean;
            products: components["schemas"]["Product"][];
        };
        /**
         * @example {
         *       "deleted": 2,
         *       "ids": [
         *         7,
         *         9
         *       ]
         *     }
         */
        ProductsDeleted: {
            deleted: number;
            ids: number[];
        };
        /** @enum {string} */
        Profile: "user" | "admin";
        /**
         * @example {
         *       "id": 4,
         *       "companyId": 1,
         *       "name": "Atendente virtual",
         *       "prompt": "Você é o atendente da Loja Exemplo. Responda de forma breve e cordial.",
         *       "queueId": 2,
         *       "queue": {
         *         "id": 2,
         *         "name": "Suporte",
         *         "color": "#7c7c7c"
         *       },
         *       "provider": "openai",
         *       "baseUrl": "https://api.openai.com/v1",
         *       "model": "gpt-4o-mini",
         *       "hasApiKey": true,
         *       "apiKeyLast4": "x9Qe",
         *       "maxMessages": 10,
         *       "maxTokens": 300,
         *       "temperature": 0.7,
         *       "voice": "texto",
         *       "promptTokens": 1520,
         *       "completionTokens": 410,
         *       "totalTokens": 1930,
         *       "createdAt": "2025-11-27T18:00:00.000Z",
         *       "updatedAt": "2025-11-27T18:00:00.000Z"
         *     }
         */
        Prompt: {
            apiKeyLast4: string | null;
            baseUrl: string;
            companyId: number;
            completionTokens: number;
            /** Format: date-time */
            createdAt: string;
            hasApiKey: boolean;
            id: number;
            maxMessages: number;
            maxTokens: number;
            model: string;
            name: string;
            prompt: string;
            promptTokens: number;
            /** @enum {string} */
            provider: "openai" | "openai-compatible";
            queue: components["schemas"]["QueueSummary"] & (Record<string, never> | null);
            queueId: number | null;
            temperature: number;
            totalTokens: number;
            /** Format: date-time */
            updatedAt: string;
            voice: string;
        };
        /**
         * @example {
         *       "prompts": [
         *         {
         *           "id": 4,
         *           "companyId": 1,
         *           "name": "Atendente virtual",
         *           "prompt": "Você é o atendente da Loja Exemplo. Responda de forma breve e cordial.",
         *           "queueId": 2,
         *           "queue": {
         *             "id": 2,
         *             "name": "Suporte",
         *             "color": "#7c7c7c"
         *           },
         *           "provider": "openai",
         *           "baseUrl": "https://api.openai.com/v1",
         *           "model": "gpt-4o-mini",
         *           "hasApiKey": true,
         *           "apiKeyLast4": "x9Qe",
         *           "maxMessages": 10,
         *           "maxTokens": 300,
         *           "temperature": 0.7,
         *           "voice": "texto",
         *           "promptTokens": 1520,
         *           "completionTokens": 410,
         *           "totalTokens": 1930,
         *           "createdAt": "2025-11-27T18:00:00.000Z",
         *           "updatedAt": "2025-11-27T18:00:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        PromptPage: {
            count: number;
            hasMore: boolean;
            prompts: components["schemas"]["Prompt"][];
        };
        /**
         * @example {
         *       "id": 4,
         *       "companyId": 1,
         *       "isGlobal": false,
         *       "name": "São Paulo 1",
         *       "protocol": "socks5",
         *       "host": "br1.proxies.example",
         *       "port": 1080,
         *       "username": "acme",
         *       "hasPassword": true,
         *       "country": "BR",
         *       "maxConnections": 5,
         *       "assignedConnections": 2,
         *       "active": true,
         *       "status": "healthy",
         *       "disabledReason": null,
         *       "failCount": 0,
         *       "lastError": null,
         *       "lastLatencyMs": 84,
         *       "lastCheckAt": "2025-11-27T18:00:00.000Z",
         *       "createdAt": "2025-11-20T12:00:00.000Z",
         *       "updatedAt": "2025-11-27T18:00:00.000Z"
         *     }
         */
        Proxy: {
            active: boolean;
            assignedConnections: number;
            companyId: number | null;
            country: string | null;
            /** Format: date-time */
            createdAt: string;
            disabledReason: string | null;
            failCount: number;
            hasPassword: boolean;
            host: string;
            id: number;
            isGlobal: boolean;
            /** Format: date-time */
            lastCheckAt: string | null;
            lastError: string | null;
            lastLatencyMs: number | null;
            maxConnections: number;
            name: string;
            port: number;
            /** @enum {string} */
            protocol: "http" | "https" | "socks4" | "socks5";
            /** @enum {string} */
            status: "healthy" | "unchecked" | "degraded" | "failing" | "disabled";
            /** Format: date-time */
            updatedAt: string;
            username: string | null;
        };
        /**
         * @example {
         *       "chatappId": 7,
         *       "proxyId": 4,
         *       "assignedAt": "2025-11-27T18:00:00.000Z",
         *       "restarted": true
         *     }
         */
        ProxyAssignment: {
            /** Format: date-time */
            assignedAt: string | null;
            chatappId: number;
            proxyId: number | null;
            restarted: boolean;
        };
        /**
         * @example {
         *       "moved": [
         *         {
         *           "chatappId": 7,
         *           "from": 4,
         *           "to": 5
         *         }
         *       ],
         *       "skipped": [
         *         {
         *           "chatappId": 9,
         *           "reason": "no-capacity"
         *         }
         *       ]
         *     }
         */
        ProxyBalanceResult: {
            moved: components["schemas"]["Moved"];
            skipped: {
                chatappId: number;
                /** @enum {string} */
                reason: "no-capacity";
            }[];
        };
        /**
         * @example {
         *       "proxyId": 4,
         *       "moved": [
         *         {
         *           "chatappId": 7,
         *           "from": 4,
         *           "to": 5
         *         }
         *       ],
         *       "skipped": []
         *     }
         */
        ProxyDisableResult: {
            moved: components["schemas"]["Moved"];
            proxyId: number;
            skipped: {
                chatappId: number;
                /** @enum {string} */
                reason: "no-capacity";
            }[];
        };
        /**
         * @example {
         *       "total": 2,
         *       "active": 2,
         *       "disabled": 0,
         *       "capacity": 10,
         *       "used": 3,
         *       "free": 7,
         *       "byStatus": {
         *         "healthy": 1,
         *         "unchecked": 0,
         *         "degraded": 1,
         *         "failing": 0,
         *         "disabled": 0
         *       },
         *       "byCountry": {
         *         "BR": 2
         *       },
         *       "perProxy": [
         *         {
         *           "id": 4,
         *           "name": "São Paulo 1",
         *           "assigned": 2,
         *           "capacity": 5,
         *           "utilisation": 0.4,
         *           "latencyMs": 84,
         *           "failCount": 0,
         *           "status": "healthy"
         *         }
         *       ],
         *       "unassignedConnections": 1
         *     }
         */
        ProxyStats: {
            active: number;
            byCountry: {
                [key: string]: number;
            };
            byStatus: {
                degraded: number;
                disabled: number;
                failing: number;
                healthy: number;
                unchecked: number;
            };
            capacity: number;
            disabled: number;
            free: number;
            perProxy: {
                assigned: number;
                capacity: number;
                failCount: number;
                id: number;
                latencyMs: number | null;
                name: string;
                /** @enum {string} */
                status: "healthy" | "unchecked" | "degraded" | "failing" | "disabled";
                utilisation: number;
            }[];
            total: number;
            unassignedConnections: number;
            used: number;
        };
        /**
         * @example {
         *       "name": "Support WhatsApp",
         *       "greetingMessage": "Hello! How can we help?",
         *       "complationMessage": "Thanks for talking to us.",
         *       "outOfHoursMessage": null,
         *       "isDefault": true,
         *       "reopenWindowMinutes": 30,
         *       "queueIds": [
         *         2,
         *         5
         *       ],
         *       "promptId": null
         *     }
         */
        PutChatappByChatappIdBody: {
            complationMessage?: string | null;
            externalId?: string | null;
            farewellMessage?: string | null;
            greetingMessage?: string | null;
            isDefault?: boolean;
            /** @enum {string} */
            kind?: "chatapp" | "socialnet" | "bizchat";
            name?: string;
            outOfHoursMessage?: string | null;
            promptId?: number | null;
            provider?: ("sandbox" | "baileys" | "messenger" | "instagram" | "cloudapi") | ("beta" | "stable");
            queueIds?: number[];
            reopenWindowMinutes?: number;
            secrets?: {
                [key: string]: string;
            };
            token?: string | null;
        };
        /**
         * @example {
         *       "id": 1,
         *       "companyId": 1,
         *       "name": "Support",
         *       "color": "#7c7c7c",
         *       "greetingMessage": "Welcome to support!",
         *       "outOfHoursMessage": "We are closed now; we answer from 8am.",
         *       "schedules": [
         *         {
         *           "weekday": "Segunda-feira",
         *           "weekdayEn": "monday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         }
         *       ],
         *       "orderQueue": 1,
         *       "integrationId": null,
         *       "promptId": null,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-01T09:30:00.000Z"
         *     }
         */
        Queue: {
            color: string;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            greetingMessage: string | null;
            id: number;
            /** @example null */
            integrationId: number | null;
            name: string;
            orderQueue: number;
            /** @example null */
            outOfHoursMessage: string | null;
            /** @example null */
            promptId: number | null;
            schedules: components["schemas"]["DayHours"][];
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "message": "Queue deleted"
         *     }
         */
        QueueDeleted: {
            /** @enum {string} */
            message: "Queue deleted";
        };
        /**
         * @example {
         *       "id": 5,
         *       "companyId": 1,
         *       "name": "Sales n8n",
         *       "type": "n8n",
         *       "url": "https://n8n.example.com/webhook/sales",
         *       "config": {
         *         "flow": "sales"
         *       },
         *       "hasToken": true,
         *       "hasSecret": false,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z",
         *       "urlN8N": "https://n8n.example.com/webhook/sales",
         *       "projectName": null,
         *       "language": null,
         *       "typebotSlug": null,
         *       "typebotExpires": null,
         *       "typebotDelayMessage": null,
         *       "typebotKeywordFinish": null,
         *       "typebotKeywordRestart": null,
         *       "typebotUnknownMessage": null,
         *       "typebotRestartMessage": null
         *     }
         */
        QueueIntegration: {
            companyId: number;
            /**
             * @example {
             *       "flow": "sales"
             *     }
             */
            config: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            createdAt: string;
            hasSecret: boolean;
            hasToken: boolean;
            id: number;
            /** @example null */
            language: string | number | null;
            name: string;
            /** @example null */
            projectName: string | number | null;
            /** @enum {string} */
            type: "webhook" | "n8n" | "typebot" | "dialogflow";
            /** @example null */
            typebotDelayMessage: string | number | null;
            /** @example null */
            typebotExpires: string | number | null;
            /** @example null */
            typebotKeywordFinish: string | number | null;
            /** @example null */
            typebotKeywordRestart: string | number | null;
            /** @example null */
            typebotRestartMessage: string | number | null;
            /** @example null */
            typebotSlug: string | number | null;
            /** @example null */
            typebotUnknownMessage: string | number | null;
            /** Format: date-time */
            updatedAt: string;
            url: string;
            urlN8N: string;
        };
        /**
         * @example {
         *       "message": "Integration deleted"
         *     }
         */
        QueueIntegrationDeleted: {
            /** @enum {string} */
            message: "Integration deleted";
        };
        /**
         * @example {
         *       "queueIntegrations": [
         *         {
         *           "id": 5,
         *           "companyId": 1,
         *           "name": "Sales n8n",
         *           "type": "n8n",
         *           "url": "https://n8n.example.com/webhook/sales",
         *           "config": {
         *             "flow": "sales"
         *           },
         *           "hasToken": true,
         *           "hasSecret": false,
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-01-31T12:00:00.000Z",
         *           "urlN8N": "https://n8n.example.com/webhook/sales",
         *           "projectName": null,
         *           "language": null,
         *           "typebotSlug": null,
         *           "typebotExpires": null,
         *           "typebotDelayMessage": null,
         *           "typebotKeywordFinish": null,
         *           "typebotKeywordRestart": null,
         *           "typebotUnknownMessage": null,
         *           "typebotRestartMessage": null
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        QueueIntegrationPage: {
            count: number;
            hasMore: boolean;
            queueIntegrations: components["schemas"]["QueueIntegration"][];
        };
        /**
         * @example {
         *       "ok": true,
         *       "status": 200
         *     }
         */
        QueueIntegrationTestResult: {
            error?: string;
            ok: boolean;
            status: number | null;
        };
        /**
         * @example [
         *       {
         *         "id": 1,
         *         "companyId": 1,
         *         "name": "Support",
         *         "color": "#7c7c7c",
         *         "greetingMessage": "Welcome to support!",
         *         "outOfHoursMessage": "We are closed now; we answer from 8am.",
         *         "schedules": [
         *           {
         *             "weekday": "Segunda-feira",
         *             "weekdayEn": "monday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           }
         *         ],
         *         "orderQueue": 1,
         *         "integrationId": null,
         *         "promptId": null,
         *         "createdAt": "2025-01-31T12:00:00.000Z",
         *         "updatedAt": "2025-02-01T09:30:00.000Z"
         *       }
         *     ]
         */
        QueueList: components["schemas"]["Queue"][];
        /**
         * @example {
         *       "id": 10,
         *       "companyId": 1,
         *       "queueId": 1,
         *       "parentId": null,
         *       "kind": "option",
         *       "title": "Billing",
         *       "message": "Tell us your invoice number.",
         *       "option": "1",
         *       "forwardQueueId": null,
         *       "forwardUserId": null,
         *       "closeTicket": false,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z"
         *     }
         */
        QueueOption: {
            closeTicket: boolean;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            /** @example null */
            forwardQueueId: number | null;
            /** @example null */
            forwardUserId: number | null;
            id: number;
            /** @enum {string} */
            kind: "option" | "chatbot";
            message: string | null;
            option: string;
            /** @example null */
            parentId: number | null;
            queueId: number;
            title: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "message": "Option deleted"
         *     }
         */
        QueueOptionDeleted: {
            /** @enum {string} */
            message: "Option deleted";
        };
        /**
         * @example [
         *       {
         *         "id": 10,
         *         "companyId": 1,
         *         "queueId": 1,
         *         "parentId": null,
         *         "kind": "option",
         *         "title": "Billing",
         *         "message": "Tell us your invoice number.",
         *         "option": "1",
         *         "forwardQueueId": null,
         *         "forwardUserId": null,
         *         "closeTicket": false,
         *         "createdAt": "2025-01-31T12:00:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z"
         *       }
         *     ]
         */
        QueueOptionList: components["schemas"]["QueueOption"][];
        /**
         * @example {
         *       "id": 1,
         *       "name": "Support",
         *       "color": "#7c7c7c"
         *     }
         */
        QueueSummary: {
            color: string;
            id: number;
            name: string;
        };
        /**
         * @example {
         *       "id": 2,
         *       "name": "Ana Lima"
         *     }
         */
        QueueUser: {
            id: number;
            name: string;
        };
        /**
         * @example {
         *       "id": 1,
         *       "companyId": 1,
         *       "name": "Support",
         *       "color": "#7c7c7c",
         *       "greetingMessage": "Welcome to support!",
         *       "outOfHoursMessage": "We are closed now; we answer from 8am.",
         *       "schedules": [
         *         {
         *           "weekday": "Segunda-feira",
         *           "weekdayEn": "monday",
         *           "startTimeA": "08:00",
         *           "endTimeA": "12:00",
         *           "startTimeB": "13:00",
         *           "endTimeB": "18:00"
         *         }
         *       ],
         *       "orderQueue": 1,
         *       "integrationId": null,
         *       "promptId": null,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-01T09:30:00.000Z",
         *       "users": [
         *         {
         *           "id": 2,
         *           "name": "Ana Lima"
         *         }
         *       ],
         *       "chatbots": []
         *     }
         */
        QueueWithUsers: {
            chatbots: components["schemas"]["ChatbotTree"][];
            color: string;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            greetingMessage: string | null;
            id: number;
            /** @example null */
            integrationId: number | null;
            name: string;
            orderQueue: number;
            /** @example null */
            outOfHoursMessage: string | null;
            /** @example null */
            promptId: number | null;
            schedules: components["schemas"]["DayHours"][];
            /** Format: date-time */
            updatedAt: string;
            users: components["schemas"]["QueueUser"][];
        };
        /**
         * @example [
         *       {
         *         "id": 1,
         *         "companyId": 1,
         *         "name": "Support",
         *         "color": "#7c7c7c",
         *         "greetingMessage": "Welcome to support!",
         *         "outOfHoursMessage": "We are closed now; we answer from 8am.",
         *         "schedules": [
         *           {
         *             "weekday": "Segunda-feira",
         *             "weekdayEn": "monday",
         *             "startTimeA": "08:00",
         *             "endTimeA": "12:00",
         *             "startTimeB": "13:00",
         *             "endTimeB": "18:00"
         *           }
         *         ],
         *         "orderQueue": 1,
         *         "integrationId": null,
         *         "promptId": null,
         *         "createdAt": "2025-01-31T12:00:00.000Z",
         *         "updatedAt": "2025-02-01T09:30:00.000Z",
         *         "users": [
         *           {
         *             "id": 2,
         *             "name": "Ana Lima"
         *           }
         *         ],
         *         "chatbots": []
         *       }
         *     ]
         */
        QueueWithUsersList: components["schemas"]["QueueWithUsers"][];
        Ratings: {
            average: number;
            count: number;
            detractors: number;
            nps: number;
            passives: number;
            promoters: number;
        };
        /** @enum {string} */
        Recurrence: "MENSAL" | "BIMESTRAL" | "TRIMESTRAL" | "SEMESTRAL" | "ANUAL";
        /**
         * @example {
         *       "token": "eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOjd9.c2lnbmF0dXJl",
         *       "user": {
         *         "id": 7,
         *         "companyId": 1,
         *         "name": "Maria Souza",
         *         "email": "maria@acme.com.br",
         *         "profile": "admin",
         *         "mustChangePassword": false,
         *         "online": true,
         *         "profileImage": "7-1f0c.png",
         *         "allTicket": "enable",
         *         "defaultTicketsManagerWidth": 550,
         *         "defaultTheme": "light",
         *         "defaultMenu": "open",
         *         "startWork": "08:00",
         *         "endWork": "18:00",
         *         "farewellMessage": null,
         *         "chatappId": 2,
         *         "allHistoric": "disabled",
         *         "allUserChat": "disabled",
         *         "userClosePendingTicket": "enabled",
         *         "showDashboard": "disabled",
         *         "allowRealTime": "disabled",
         *         "allowConnections": "disabled",
         *         "allowGroup": false,
         *         "super": false,
         *         "lastLoginAt": "2025-01-31T12:00:00.000Z",
         *         "createdAt": "2025-01-02T09:30:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z",
         *         "queues": [
         *           {
         *             "id": 4,
         *             "name": "Suporte",
         *             "color": "#0055ff",
         *             "UserQueue": {
         *               "userId": 7,
         *               "queueId": 4
         *             }
         *           }
         *         ],
         *         "company": {
         *           "id": 1,
         *           "name": "Acme Atendimento",
         *           "email": "contato@acme.com.br",
         *           "phone": null,
         *           "document": null,
         *           "status": true,
         *           "planId": 2,
         *           "dueDate": "2025-02-28",
         *           "recurrence": "MENSAL",
         *           "paymentMethod": null
         *         }
         *       }
         *     }
         */
        RefreshResult: {
            token: string;
            user: components["schemas"]["UserDetails"];
        };
        /**
         * @example {
         *       "contactId": 42,
         *       "seller": {
         *         "id": 3,
         *         "name": "Ana Souza"
         *       },
         *       "since": "2026-02-01T12:00:00.000Z",
         *       "assignedBy": {
         *         "id": 1,
         *         "name": "Admin"
         *       }
         *     }
         */
        ResponsibleSeller: {
            assignedBy: {
                id: number;
                name: string;
            } | null;
            contactId: number;
            seller: {
                id: number;
                name: string;
            } | null;
            /** Format: date-time */
            since: string | null;
        };
        Save: {
            path: string;
            variable: string;
        }[];
        /**
         * @example {
         *       "id": 3,
         *       "companyId": 1,
         *       "name": "OpenAI",
         *       "provider": "openai",
         *       "baseUrl": "https://api.openai.com/v1",
         *       "model": "whisper-1",
         *       "language": "pt",
         *       "isDefault": true,
         *       "hasApiKey": true,
         *       "apiKeyLast4": "x9Qe",
         *       "createdAt": "2025-11-27T18:00:00.000Z",
         *       "updatedAt": "2025-11-27T18:00:00.000Z",
         *       "test": {
         *         "ok": true,
         *         "latencyMs": 640,
         *         "text": ""
         *       }
         *     }
         */
        SavedTranscriptionCredential: {
            apiKeyLast4: string | null;
            baseUrl: string;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            hasApiKey: boolean;
            id: number;
            isDefault: boolean;
            language: string | null;
            model: string;
            name: string;
            /** @enum {string} */
            provider: "openai" | "openai-compatible";
            test?: {
                latencyMs: number;
                /** @enum {boolean} */
                ok: true;
                text: string;
            };
            /** Format: date-time */
            updatedAt: string;
        };
        SaveFlowGraphBodyNodesItemAiAgentData: {
            input?: string;
            maxTurns?: number;
            model?: {
                baseUrl?: string;
                instructions?: string;
                maxTokens?: number;
                model?: string;
                temperature?: number;
            } | null;
            promptId?: number | null;
            variable?: string | null;
        };
        SaveFlowGraphBodyNodesItemConditionData: {
            /** @enum {string} */
            match?: "all" | "any" | "first";
            rules?: {
                handle?: string;
                key?: string;
                /** @enum {string} */
                operator?: "equals" | "notEquals" | "contains" | "notContains" | "startsWith" | "endsWith" | "greaterThan" | "lessThan" | "isEmpty" | "isNotEmpty" | "isTrue" | "isFalse";
                /** @enum {string} */
                source?: "variable" | "contact" | "businessHours";
                value?: string;
            }[];
        };
        SaveFlowGraphBodyNodesItemGoToFlowData: {
            flowId?: number;
        };
        SaveFlowGraphBodyNodesItemHttpData: {
            body?: string | null;
            headers?: components["schemas"]["Headers"];
            /** @enum {string} */
            method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
            save?: components["schemas"]["Save"];
            timeoutMs?: number;
            url?: string;
        };
        SaveFlowGraphBodyNodesItemMessageData: {
            media?: components["schemas"]["Media"];
            text?: string;
            typingMs?: number;
        };
        SaveFlowGraphBodyNodesItemSetVariableData: {
            value?: string;
            variable?: string;
        };
        SaveFlowGraphBodyNodesItemTagsData: {
            add?: number[];
            remove?: number[];
        };
        SaveFlowGraphBodyNodesItemTransferData: {
            queueId?: number | null;
            userId?: number | null;
        };
        /**
         * @example {
         *       "id": 31,
         *       "companyId": 1,
         *       "body": "Olá {{firstName}}, lembrete da sua consulta amanhã.",
         *       "sendAt": "2026-03-05T12:00:00.000Z",
         *       "sentAt": null,
         *       "status": "PENDENTE",
         *       "contactId": 12,
         *       "ticketId": null,
         *       "userId": 4,
         *       "ticketUserId": null,
         *       "queueId": null,
         *       "chatappId": 2,
         *       "statusTicket": "closed",
         *       "openTicket": "disabled",
         *       "mediaPath": null,
         *       "mediaName": null,
         *       "intervalo": 2,
         *       "valorIntervalo": 1,
         *       "enviarQuantasVezes": 4,
         *       "tipoDias": 4,
         *       "contadorEnvio": 0,
         *       "assinar": false,
         *       "repeatUntil": null,
         *       "lastError": null,
         *       "createdAt": "2026-03-02T12:00:00.000Z",
         *       "updatedAt": "2026-03-02T12:00:00.000Z",
         *       "contact": {
         *         "id": 12,
         *         "name": "Maria Souza",
         *         "number": "5511988887777",
         *         "urlPicture": ""
         *       },
         *       "user": {
         *         "id": 4,
         *         "name": "Ana Lima"
         *       },
         *       "ticketUser": null,
         *       "chatapp": {
         *         "id": 2,
         *         "name": "Vendas",
         *         "channel": "chatapp"
         *       },
         *       "queue": null
         *     }
         */
        Schedule: {
            assinar: boolean;
            body: string;
            chatapp: components["schemas"]["ScheduleChatapp"];
            chatappId: number | null;
            companyId: number;
            contact: components["schemas"]["ScheduleContact"];
            contactId: number | null;
            contadorEnvio: number;
            /** Format: date-time */
            createdAt: string;
            enviarQuantasVezes: number;
            id: number;
            intervalo: number;
            /** @example null */
            lastError: string | null;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            /** @enum {string} */
            openTicket: "enabled" | "disabled";
            queue: components["schemas"]["ScheduleUser"];
            /** @example null */
            queueId: number | null;
            /**
             * Format: date-time
             * @example null
             */
            repeatUntil: string | null;
            /** Format: date-time */
            sendAt: string;
            /**
             * Format: date-time
             * @example null
             */
            sentAt: string | null;
            /** @enum {string} */
            status: "PENDENTE" | "ENVIADA" | "ERRO" | "PERDIDA";
            /** @enum {string} */
            statusTicket: "open" | "pending" | "closed";
            /** @example null */
            ticketId: number | null;
            ticketUser: components["schemas"]["ScheduleUser"];
            /** @example null */
            ticketUserId: number | null;
            tipoDias: number;
            /** Format: date-time */
            updatedAt: string;
            user: components["schemas"]["ScheduleUser"];
            userId: number | null;
            valorIntervalo: number;
        };
        ScheduleChatapp: {
            channel: string;
            id: number;
            name: string;
        } | null;
        ScheduleContact: {
            id: number;
            name: string;
            number: string;
            urlPicture: string;
        } | null;
        /**
         * @example {
         *       "id": 40,
         *       "companyId": 1,
         *       "nome": "Aviso de feriado",
         *       "mensagem": "Olá {{firstName}}, não abriremos na segunda.",
         *       "data_mensagem_programada": "2026-04-17T12:00:00.000Z",
         *       "id_conexao": 2,
         *       "intervalo": 1,
         *       "valor_intervalo": 0,
         *       "enviar_quantas_vezes": 1,
         *       "tipo_dias_envio": 4,
         *       "mostrar_usuario_mensagem": false,
         *       "criar_ticket": false,
         *       "contatos": [
         *         12,
         *         13
         *       ],
         *       "tags": [
         *         5
         *       ],
         *       "usuario_envio": null,
         *       "tipo_arquivo": null,
         *       "status": "PENDENTE",
         *       "sentAt": null,
         *       "contadorEnvio": 0,
         *       "repeatUntil": null,
         *       "lastError": null,
         *       "mediaPath": null,
         *       "mediaName": null,
         *       "createdAt": "2026-03-02T12:00:00.000Z",
         *       "updatedAt": "2026-03-02T12:00:00.000Z"
         *     }
         */
        ScheduledMessage: {
            companyId: number;
            contadorEnvio: number;
            contatos: number[];
            /** Format: date-time */
            createdAt: string;
            criar_ticket: boolean;
            /** Format: date-time */
            data_mensagem_programada: string;
            enviar_quantas_vezes: number;
            id: number;
            id_conexao: number | null;
            intervalo: number;
            /** @example null */
            lastError: string | null;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            mensagem: string;
            mostrar_usuario_mensagem: boolean;
            nome: string;
            /**
             * Format: date-time
             * @example null
             */
            repeatUntil: string | null;
            /**
             * Format: date-time
             * @example null
             */
            sentAt: string | null;
            /** @enum {string} */
            status: "PENDENTE" | "ENVIADA" | "ERRO" | "PERDIDA";
            tags: number[];
            tipo_arquivo: string | null;
            tipo_dias_envio: number;
            /** Format: date-time */
            updatedAt: string;
            /** @example null */
            usuario_envio: number | null;
            valor_intervalo: number;
        };
        /**
         * @example {
         *       "schedules": [
         *         {
         *           "id": 40,
         *           "companyId": 1,
         *           "nome": "Aviso de feriado",
         *           "mensagem": "Olá {{firstName}}, não abriremos na segunda.",
         *           "data_mensagem_programada": "2026-04-17T12:00:00.000Z",
         *           "id_conexao": 2,
         *           "intervalo": 1,
         *           "valor_intervalo": 0,
         *           "enviar_quantas_vezes": 1,
         *           "tipo_dias_envio": 4,
         *           "mostrar_usuario_mensagem": false,
         *           "criar_ticket": false,
         *           "contatos": [
         *             12,
         *             13
         *           ],
         *           "tags": [
         *             5
         *           ],
         *           "usuario_envio": null,
         *           "tipo_arquivo": null,
         *           "status": "PENDENTE",
         *           "sentAt": null,
         *           "contadorEnvio": 0,
         *           "repeatUntil": null,
         *           "lastError": null,
         *           "mediaPath": null,
         *           "mediaName": null,
         *           "createdAt": "2026-03-02T12:00:00.000Z",
         *           "updatedAt": "2026-03-02T12:00:00.000Z"
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        ScheduledMessagePage: {
            count: number;
            hasMore: boolean;
            schedules: components["schemas"]["ScheduledMessage"][];
        };
        /**
         * @example {
         *       "id": 40,
         *       "companyId": 1,
         *       "nome": "Aviso de feriado",
         *       "mensagem": "Olá {{firstName}}, não abriremos na segunda.",
         *       "data_mensagem_programada": "2026-04-17T12:00:00.000Z",
         *       "id_conexao": 2,
         *       "intervalo": 1,
         *       "valor_intervalo": 0,
         *       "enviar_quantas_vezes": 1,
         *       "tipo_dias_envio": 4,
         *       "mostrar_usuario_mensagem": false,
         *       "criar_ticket": false,
         *       "contatos": [
         *         12,
         *         13
         *       ],
         *       "tags": [
         *         5
         *       ],
         *       "usuario_envio": null,
         *       "tipo_arquivo": null,
         *       "status": "PENDENTE",
         *       "sentAt": null,
         *       "contadorEnvio": 0,
         *       "repeatUntil": null,
         *       "lastError": null,
         *       "mediaPath": null,
         *       "mediaName": null,
         *       "createdAt": "2026-03-02T12:00:00.000Z",
         *       "updatedAt": "2026-03-02T12:00:00.000Z",
         *       "occurrences": []
         *     }
         */
        ScheduledMessageWithOccurrences: {
            companyId: number;
            contadorEnvio: number;
            contatos: number[];
            /** Format: date-time */
            createdAt: string;
            criar_ticket: boolean;
            /** Format: date-time */
            data_mensagem_programada: string;
            enviar_quantas_vezes: number;
            id: number;
            id_conexao: number | null;
            intervalo: number;
            /** @example null */
            lastError: string | null;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            mensagem: string;
            mostrar_usuario_mensagem: boolean;
            nome: string;
            occurrences: components["schemas"]["ScheduleOccurrence"][];
            /**
             * Format: date-time
             * @example null
             */
            repeatUntil: string | null;
            /**
             * Format: date-time
             * @example null
             */
            sentAt: string | null;
            /** @enum {string} */
            status: "PENDENTE" | "ENVIADA" | "ERRO" | "PERDIDA";
            tags: number[];
            tipo_arquivo: string | null;
            tipo_dias_envio: number;
            /** Format: date-time */
            updatedAt: string;
            /** @example null */
            usuario_envio: number | null;
            valor_intervalo: number;
        };
        /**
         * @example {
         *       "mensagem": "Arquivo Anexado",
         *       "id": 31,
         *       "companyId": 1,
         *       "body": "Olá {{firstName}}, lembrete da sua consulta amanhã.",
         *       "sendAt": "2026-03-05T12:00:00.000Z",
         *       "sentAt": null,
         *       "status": "PENDENTE",
         *       "contactId": 12,
         *       "ticketId": null,
         *       "userId": 4,
         *       "ticketUserId": null,
         *       "queueId": null,
         *       "chatappId": 2,
         *       "statusTicket": "closed",
         *       "openTicket": "disabled",
         *       "mediaPath": null,
         *       "mediaName": null,
         *       "intervalo": 2,
         *       "valorIntervalo": 1,
         *       "enviarQuantasVezes": 4,
         *       "tipoDias": 4,
         *       "contadorEnvio": 0,
         *       "assinar": false,
         *       "repeatUntil": null,
         *       "lastError": null,
         *       "createdAt": "2026-03-02T12:00:00.000Z",
         *       "updatedAt": "2026-03-02T12:00:00.000Z",
         *       "contact": {
         *         "id": 12,
         *         "name": "Maria Souza",
         *         "number": "5511988887777",
         *         "urlPicture": ""
         *       },
         *       "user": {
         *         "id": 4,
         *         "name": "Ana Lima"
         *       },
         *       "ticketUser": null,
         *       "chatapp": {
         *         "id": 2,
         *         "name": "Vendas",
         *         "channel": "chatapp"
         *       },
         *       "queue": null
         *     }
         */
        ScheduleMediaAnswer: {
            assinar: boolean;
            body: string;
            chatapp: components["schemas"]["ScheduleChatapp"];
            chatappId: number | null;
            companyId: number;
            contact: components["schemas"]["ScheduleContact"];
            contactId: number | null;
            contadorEnvio: number;
            /** Format: date-time */
            createdAt: string;
            enviarQuantasVezes: number;
            id: number;
            intervalo: number;
            /** @example null */
            lastError: string | null;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            mensagem: string;
            /** @enum {string} */
            openTicket: "enabled" | "disabled";
            queue: components["schemas"]["ScheduleUser"];
            /** @example null */
            queueId: number | null;
            /**
             * Format: date-time
             * @example null
             */
            repeatUntil: string | null;
            /** Format: date-time */
            sendAt: string;
            /**
             * Format: date-time
             * @example null
             */
            sentAt: string | null;
            /** @enum {string} */
            status: "PENDENTE" | "ENVIADA" | "ERRO" | "PERDIDA";
            /** @enum {string} */
            statusTicket: "open" | "pending" | "closed";
            /** @example null */
            ticketId: number | null;
            ticketUser: components["schemas"]["ScheduleUser"];
            /** @example null */
            ticketUserId: number | null;
            tipoDias: number;
            /** Format: date-time */
            updatedAt: string;
            user: components["schemas"]["ScheduleUser"];
            userId: number | null;
            valorIntervalo: number;
        };
        /**
         * @example {
         *       "id": 7,
         *       "sequence": 1,
         *       "dueAt": "2026-03-05T12:00:00.000Z",
         *       "status": "sent",
         *       "recipients": 1,
         *       "sent": 1,
         *       "failed": 0,
         *       "failureReason": null,
         *       "settledAt": "2026-03-05T12:00:01.000Z"
         *     }
         */
        ScheduleOccurrence: {
            /** Format: date-time */
            dueAt: string;
            failed: number;
            failureReason: string | null;
            id: number;
            recipients: number;
            sent: number;
            sequence: number;
            /** Format: date-time */
            settledAt: string | null;
            /** @enum {string} */
            status: "pending" | "sending" | "sent" | "failed" | "missed";
        };
        /**
         * @example {
         *       "schedules": [
         *         {
         *           "id": 31,
         *           "companyId": 1,
         *           "body": "Olá {{firstName}}, lembrete da sua consulta amanhã.",
         *           "sendAt": "2026-03-05T12:00:00.000Z",
         *           "sentAt": null,
         *           "status": "PENDENTE",
         *           "contactId": 12,
         *           "ticketId": null,
         *           "userId": 4,
         *           "ticketUserId": null,
         *           "queueId": null,
         *           "chatappId": 2,
         *           "statusTicket": "closed",
         *           "openTicket": "disabled",
         *           "mediaPath": null,
         *           "mediaName": null,
         *           "intervalo": 2,
         *           "valorIntervalo": 1,
         *           "enviarQuantasVezes": 4,
         *           "tipoDias": 4,
         *           "contadorEnvio": 0,
         *           "assinar": false,
         *           "repeatUntil": null,
         *           "lastError": null,
         *           "createdAt": "2026-03-02T12:00:00.000Z",
         *           "updatedAt": "2026-03-02T12:00:00.000Z",
         *           "contact": {
         *             "id": 12,
         *             "name": "Maria Souza",
         *             "number": "5511988887777",
         *             "urlPicture": ""
         *           },
         *           "user": {
         *             "id": 4,
         *             "name": "Ana Lima"
         *           },
         *           "ticketUser": null,
         *           "chatapp": {
         *             "id": 2,
         *             "name": "Vendas",
         *             "channel": "chatapp"
         *           },
         *           "queue": null
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        SchedulePage: {
            count: number;
            hasMore: boolean;
            schedules: components["schemas"]["Schedule"][];
        };
        Schedules: ({
            endTimeA: string;
            endTimeB: string;
            startTimeA: string;
            startTimeB: string;
            weekday: string;
            /** @enum {string} */
            weekdayEn: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
        } | {
            endTime: string;
            startTime: string;
            weekday: string;
            /** @enum {string} */
            weekdayEn: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
        })[];
        ScheduleUser: {
            id: number;
            name: string;
        } | null;
        /**
         * @example {
         *       "id": 31,
         *       "companyId": 1,
         *       "body": "Olá {{firstName}}, lembrete da sua consulta amanhã.",
         *       "sendAt": "2026-03-05T12:00:00.000Z",
         *       "sentAt": null,
         *       "status": "PENDENTE",
         *       "contactId": 12,
         *       "ticketId": null,
         *       "userId": 4,
         *       "ticketUserId": null,
         *       "queueId": null,
         *       "chatappId": 2,
         *       "statusTicket": "closed",
         *       "openTicket": "disabled",
         *       "mediaPath": null,
         *       "mediaName": null,
         *       "intervalo": 2,
         *       "valorIntervalo": 1,
         *       "enviarQuantasVezes": 4,
         *       "tipoDias": 4,
         *       "contadorEnvio": 0,
         *       "assinar": false,
         *       "repeatUntil": null,
         *       "lastError": null,
         *       "createdAt": "2026-03-02T12:00:00.000Z",
         *       "updatedAt": "2026-03-02T12:00:00.000Z",
         *       "contact": {
         *         "id": 12,
         *         "name": "Maria Souza",
         *         "number": "5511988887777",
         *         "urlPicture": ""
         *       },
         *       "user": {
         *         "id": 4,
         *         "name": "Ana Lima"
         *       },
         *       "ticketUser": null,
         *       "chatapp": {
         *         "id": 2,
         *         "name": "Vendas",
         *         "channel": "chatapp"
         *       },
         *       "queue": null,
         *       "occurrences": []
         *     }
         */
        ScheduleWithOccurrences: {
            assinar: boolean;
            body: string;
            chatapp: components["schemas"]["ScheduleChatapp"];
            chatappId: number | null;
            companyId: number;
            contact: components["schemas"]["ScheduleContact"];
            contactId: number | null;
            contadorEnvio: number;
            /** Format: date-time */
            createdAt: string;
            enviarQuantasVezes: number;
            id: number;
            intervalo: number;
            /** @example null */
            lastError: string | null;
            /** @example null */
            mediaName: string | null;
            /** @example null */
            mediaPath: string | null;
            occurrences: components["schemas"]["ScheduleOccurrence"][];
            /** @enum {string} */
            openTicket: "enabled" | "disabled";
            queue: components["schemas"]["ScheduleUser"];
            /** @example null */
            queueId: number | null;
            /**
             * Format: date-time
             * @example null
             */
            repeatUntil: string | null;
            /** Format: date-time */
            sendAt: string;
            /**
             * Format: date-time
             * @example null
             */
            sentAt: string | null;
            /** @enum {string} */
            status: "PENDENTE" | "ENVIADA" | "ERRO" | "PERDIDA";
            /** @enum {string} */
            statusTicket: "open" | "pending" | "closed";
            /** @example null */
            ticketId: number | null;
            ticketUser: components["schemas"]["ScheduleUser"];
            /** @example null */
            ticketUserId: number | null;
            tipoDias: number;
            /** Format: date-time */
            updatedAt: string;
            user: components["schemas"]["ScheduleUser"];
            userId: number | null;
            valorIntervalo: number;
        };
        /**
         * @example {
         *       "id": 3,
         *       "name": "Ana Souza",
         *       "email": "ana@loja.example",
         *       "profile": "user"
         *     }
         */
        Seller: {
            email: string;
            id: number;
            name: string;
            /** @enum {string} */
            profile: "user" | "admin";
        };
        /**
         * @example [
         *       {
         *         "id": 3,
         *         "name": "Ana Souza",
         *         "email": "ana@loja.example",
         *         "profile": "user"
         *       }
         *     ]
         */
        SellerList: components["schemas"]["Seller"][];
        SentMessages: {
            messages: components["schemas"]["Message"][];
            ticket: components["schemas"]["TicketDetails"];
        };
        /**
         * @example {
         *       "restarted": 1,
         *       "connections": [
         *         {
         *           "id": 3,
         *           "companyId": 1,
         *           "name": "Support WhatsApp",
         *           "kind": "chatapp",
         *           "channel": "chatapp",
         *           "provider": "baileys",
         *           "status": "OPENING",
         *           "qrcode": "",
         *           "pairingCode": null,
         *           "number": null,
         *           "greetingMessage": "Hello! How can we help?",
         *           "complationMessage": "Thanks for talking to us.",
         *           "outOfHoursMessage": null,
         *           "isDefault": true,
         *           "token": "abcd••••wxyz",
         *           "externalId": null,
         *           "reopenWindowMinutes": 0,
         *           "greetingMediaKey": null,
         *           "greetingMediaAttachment": null,
         *           "promptId": null,
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-02-01T09:30:00.000Z"
         *         }
         *       ]
         *     }
         */
        SessionsRestarted: {
            connections: components["schemas"]["Connection"][];
            restarted: number;
        };
        /**
         * @example {
         *       "key": "userRating",
         *       "value": "enabled"
         *     }
         */
        Setting: {
            key: string;
            value: string;
        };
        /**
         * @example [
         *       {
         *         "key": "userRating",
         *         "value": "disabled"
         *       },
         *       {
         *         "key": "scheduleType",
         *         "value": "company"
         *       },
         *       {
         *         "key": "timezone",
         *         "value": "America/Sao_Paulo"
         *       }
         *     ]
         */
        SettingList: components["schemas"]["Setting"][];
        StatusMessages: {
            cancelled?: string;
            confirmed?: string;
            delivered?: string;
            paid?: string;
            shipped?: string;
        };
        /**
         * @example {
         *       "id": 7,
         *       "companyId": 1,
         *       "name": "Billing",
         *       "color": "#3b82f6",
         *       "kanban": true,
         *       "laneOrder": 2,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-03T09:30:00.000Z"
         *     }
         */
        Tag: {
            color: string;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            id: number;
            kanban: boolean;
            laneOrder: number;
            name: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example [
         *       {
         *         "id": 7,
         *         "companyId": 1,
         *         "name": "Billing",
         *         "color": "#3b82f6",
         *         "kanban": true,
         *         "laneOrder": 2,
         *         "createdAt": "2025-01-31T12:00:00.000Z",
         *         "updatedAt": "2025-02-03T09:30:00.000Z"
         *       }
         *     ]
         */
        TagList: components["schemas"]["Tag"][];
        /**
         * @example {
         *       "tags": [
         *         {
         *           "id": 7,
         *           "companyId": 1,
         *           "name": "Billing",
         *           "color": "#3b82f6",
         *           "kanban": true,
         *           "laneOrder": 2,
         *           "createdAt": "2025-01-31T12:00:00.000Z",
         *           "updatedAt": "2025-02-03T09:30:00.000Z",
         *           "ticketCount": 12
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        TagPage: {
            count: number;
            hasMore: boolean;
            tags: components["schemas"]["TagWithTicketCount"][];
        };
        /**
         * @example {
         *       "id": 7,
         *       "name": "Billing",
         *       "color": "#3b82f6",
         *       "kanban": true
         *     }
         */
        TagSummary: {
            color: string;
            id: number;
            kanban: boolean;
            name: string;
        };
        /**
         * @example {
         *       "id": 7,
         *       "companyId": 1,
         *       "name": "Billing",
         *       "color": "#3b82f6",
         *       "kanban": true,
         *       "laneOrder": 2,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-02-03T09:30:00.000Z",
         *       "ticketCount": 12
         *     }
         */
        TagWithTicketCount: {
            color: string;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            id: number;
            kanban: boolean;
            laneOrder: number;
            name: string;
            ticketCount: number;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "count": 12
         *     }
         */
        TicketCount: {
            count: number;
        };
        /**
         * @example {
         *       "message": "Ticket deleted"
         *     }
         */
        TicketDeleted: {
            /** @enum {string} */
            message: "Ticket deleted";
        };
        /**
         * @example {
         *       "id": 42,
         *       "uuid": "5b0a3f4e-8f5c-4a57-9d0e-1c2b3a4d5e6f",
         *       "companyId": 1,
         *       "contactId": 7,
         *       "chatappId": 3,
         *       "status": "open",
         *       "userId": 2,
         *       "queueId": 1,
         *       "unreadMessages": 0,
         *       "lastMessage": "Thanks, that solved it!",
         *       "isGroup": false,
         *       "closedAt": null,
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "updatedAt": "2025-01-31T12:30:00.000Z",
         *       "queueOptionId": null,
         *       "botAttempts": 0,
         *       "botActive": false,
         *       "channel": "chatapp",
         *       "contact": {
         *         "id": 7,
         *         "companyId": 1,
         *         "name": "Maria Souza",
         *         "number": "5511987654321",
         *         "email": null,
         *         "isGroup": false,
         *         "urlPicture": null,
         *         "blocked": false,
         *         "active": true,
         *         "acceptAudioMessage": true,
         *         "disableBot": false,
         *         "walletUserId": null,
         *         "linkedUserId": null,
         *         "extraInfo": [],
         *         "createdAt": "2025-01-31T12:00:00.000Z",
         *         "updatedAt": "2025-01-31T12:00:00.000Z",
         *         "tags": []
         *       },
         *       "chatapp": {
         *         "id": 3,
         *         "name": "Support WhatsApp",
         *         "channel": "chatapp",
         *         "status": "CONNECTED",
         *         "isDefault": true
         *       },
         *       "queue": {
         *         "id": 1,
         *         "name": "Support",
         *         "color": "#0055ff"
         *       },
         *       "user": {
         *         "id": 2,
         *         "name": "Ana Operator"
         *       },
         *       "tags": [
         *         {
         *           "id": 5,
         *           "name": "VIP",
         *           "color": "#ff8800",
         *           "kanban": false
         *         }
         *       ]
         *     }
         */
        TicketDetails: {
            botActive: boolean;
            botAttempts: number;
            /** @enum {string|null} */
            channel: "chatapp" | "socialnet" | "bizchat" | null;
            chatapp: components["schemas"]["Chatapp"];
            chatappId: number;
            /** Format: date-time */
            closedAt: string | null;
            companyId: number;
            contact: components["schemas"]["Contact"];
            contactId: number;
            /** Format: date-time */
            createdAt: string;
            id: number;
            isGroup: boolean;
            lastMessage: string;
            /**
             * @example {
             *       "id": 1,
             *       "name": "Support",
             *       "color": "#0055ff"
             *     }
             */
            queue: {
                color: string;
                id: number;
                name: string;
            } | null;
            queueId: number | null;
            /** @example null */
            queueOptionId: number | null;
            status: components["schemas"]["TicketStatus"];
            tags: components["schemas"]["TagSummary"][];
            unreadMessages: number;
            /** Format: date-time */
            updatedAt: string;
            /**
             * @example {
             *       "id": 2,
             *       "name": "Ana Operator"
             *     }
             */
            user: {
                id: number;
                name: string;
            } | null;
            userId: number | null;
            uuid: string;
        };
        /**
         * @example {
         *       "tickets": [],
         *       "lanes": [
         *         {
         *           "tag": null,
         *           "tickets": [],
         *           "count": 0,
         *           "hasMore": false
         *         },
         *         {
         *           "tag": {
         *             "id": 7,
         *             "companyId": 1,
         *             "name": "Waiting for customer",
         *             "color": "#3b82f6",
         *             "kanban": true,
         *             "laneOrder": 0,
         *             "createdAt": "2025-01-31T12:00:00.000Z",
         *             "updatedAt": "2025-01-31T12:00:00.000Z"
         *           },
         *           "tickets": [],
         *           "count": 0,
         *           "hasMore": false
         *         }
         *       ]
         *     }
         */
        TicketKanban: {
            lanes: components["schemas"]["KanbanLane"][];
            tickets: components["schemas"]["TicketDetails"][];
        };
        /**
         * @example {
         *       "id": 9,
         *       "ticketId": 42,
         *       "type": "open",
         *       "payload": {
         *         "from": "pending",
         *         "to": "open"
         *       },
         *       "userId": 2,
         *       "user": {
         *         "id": 2,
         *         "name": "Ana Operator"
         *       },
         *       "createdAt": "2025-01-31T12:05:00.000Z"
         *     }
         */
        TicketLogEntry: {
            /** Format: date-time */
            createdAt: string;
            id: number;
            payload: {
                [key: string]: unknown;
            };
            ticketId: number;
            type: components["schemas"]["TicketLogType"];
            /**
             * @example {
             *       "id": 2,
             *       "name": "Ana Operator"
             *     }
             */
            user: {
                id: number;
                name: string;
            } | null;
            userId: number | null;
        };
        /** @enum {string} */
        TicketLogType: "create" | "open" | "transfered" | "pending" | "closed" | "reopen" | "ignore" | "lgpd" | "delete";
        TicketMessagePage: {
            count: number;
            hasMore: boolean;
            messages: components["schemas"]["Message"][];
            ticket: components["schemas"]["TicketDetails"];
        };
        TicketPage: {
            count: number;
            hasMore: boolean;
            tickets: components["schemas"]["TicketDetails"][];
        };
        TicketReport: {
            count: number;
            hasMore: boolean;
            tickets: components["schemas"]["TicketReportRow"][];
            totalTickets: {
                total: number;
            };
        };
        /**
         * @example {
         *       "id": 42,
         *       "uuid": "5b0a3f4e-8f5c-4a57-9d0e-1c2b3a4d5e6f",
         *       "contact": {
         *         "id": 7,
         *         "name": "Maria Souza",
         *         "number": "5511987654321"
         *       },
         *       "chatapp": {
         *         "id": 3,
         *         "name": "Support WhatsApp"
         *       },
         *       "status": "closed",
         *       "user": {
         *         "id": 2,
         *         "name": "Ana Operator"
         *       },
         *       "createdAt": "2025-01-31T12:00:00.000Z",
         *       "closedAt": "2025-01-31T12:30:00.000Z",
         *       "messages": 14
         *     }
         */
        TicketReportRow: {
            /**
             * @example {
             *       "id": 3,
             *       "name": "Support WhatsApp"
             *     }
             */
            chatapp: {
                id: number;
                name: string;
            } | null;
            /** Format: date-time */
            closedAt: string | null;
            contact: {
                id: number;
                name: string;
                number: string;
            } | null;
            /** Format: date-time */
            createdAt: string;
            id: number;
            messages: number;
            status: components["schemas"]["TicketStatus"];
            user: components["schemas"]["TicketUser"];
            uuid: string;
        };
        /**
         * @example {
         *       "closed": 3
         *     }
         */
        TicketsClosed: {
            closed: number;
        };
        /** @enum {string} */
        TicketStatus: "pending" | "open" | "closed";
        /**
         * @example {
         *       "ticketId": 314,
         *       "tags": [
         *         {
         *           "id": 7,
         *           "name": "Billing",
         *           "color": "#3b82f6",
         *           "kanban": true
         *         }
         *       ]
         *     }
         */
        TicketTags: {
            tags: components["schemas"]["TagSummary"][];
            ticketId: number;
        };
        /**
         * @example {
         *       "id": 2,
         *       "name": "Ana Operator"
         *     }
         */
        TicketUser: {
            id: number;
            name: string;
        } | null;
        /**
         * @example {
         *       "id": 3,
         *       "companyId": 1,
         *       "name": "OpenAI",
         *       "provider": "openai",
         *       "baseUrl": "https://api.openai.com/v1",
         *       "model": "whisper-1",
         *       "language": "pt",
         *       "isDefault": true,
         *       "hasApiKey": true,
         *       "apiKeyLast4": "x9Qe",
         *       "createdAt": "2025-11-27T18:00:00.000Z",
         *       "updatedAt": "2025-11-27T18:00:00.000Z"
         *     }
         */
        TranscriptionCredential: {
            apiKeyLast4: string | null;
            baseUrl: string;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            hasApiKey: boolean;
            id: number;
            isDefault: boolean;
            language: string | null;
            model: string;
            name: string;
            /** @enum {string} */
            provider: "openai" | "openai-compatible";
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * @example {
         *       "ticketId": 42,
         *       "status": "done",
         *       "job": null,
         *       "transcriptions": [
         *         {
         *           "messageId": "3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c",
         *           "status": "done",
         *           "text": "Oi, tudo bem? Queria saber do meu pedido.",
         *           "cached": false,
         *           "error": null,
         *           "jobId": null
         *         }
         *       ]
         *     }
         */
        TranscriptionResult: {
            /**
             * @example {
             *       "id": "0b6f3c2e-8f5c-4a57-9d0e-1c2b3a4d5e6f",
             *       "ticketId": 42,
             *       "status": "running",
             *       "total": 2,
             *       "done": 1,
             *       "failed": 0,
             *       "items": [
             *         {
             *           "messageId": "3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c",
             *           "status": "done",
             *           "error": null
             *         },
             *         {
             *           "messageId": "7a1c9e2d-3b4f-4c5d-8e6f-0a1b2c3d4e5f",
             *           "status": "pending",
             *           "error": null
             *         }
             *       ],
             *       "error": null,
             *       "createdAt": "2025-11-27T18:00:00.000Z",
             *       "updatedAt": "2025-11-27T18:00:20.000Z",
             *       "finishedAt": null
             *     }
             */
            job: {
                /** Format: date-time */
                createdAt: string;
                done: number;
                error: string | null;
                failed: number;
                /** Format: date-time */
                finishedAt: string | null;
                id: string;
                items: {
                    error: string | null;
                    messageId: string;
                    /** @enum {string} */
                    status: "pending" | "done" | "failed";
                }[];
                /** @enum {string} */
                status: "queued" | "running" | "done" | "failed";
                ticketId: number;
                total: number;
                /** Format: date-time */
                updatedAt: string;
            } | null;
            /** @enum {string} */
            status: "done" | "queued";
            ticketId: number;
            transcriptions: {
                cached: boolean;
                error: string | null;
                jobId: string | null;
                messageId: string;
                /** @enum {string} */
                status: "done" | "failed" | "queued" | "running";
                text: string | null;
            }[];
        };
        Triggers: components["schemas"]["TriggersItem"][];
        TriggersItem: {
            chatappIds: number[];
            keywords: {
                /** @enum {string} */
                match: "exact" | "contains";
                text: string;
            }[];
            /** @enum {string} */
            type: "welcome" | "keyword" | "noMatch" | "manual";
        };
        /**
         * @example {
         *       "id": 7,
         *       "companyId": 1,
         *       "name": "Maria Souza",
         *       "email": "maria@acme.com.br",
         *       "profile": "admin",
         *       "mustChangePassword": false,
         *       "online": true,
         *       "profileImage": "7-1f0c.png",
         *       "allTicket": "enable",
         *       "defaultTicketsManagerWidth": 550,
         *       "defaultTheme": "light",
         *       "defaultMenu": "open",
         *       "startWork": "08:00",
         *       "endWork": "18:00",
         *       "farewellMessage": null,
         *       "chatappId": 2,
         *       "allHistoric": "disabled",
         *       "allUserChat": "disabled",
         *       "userClosePendingTicket": "enabled",
         *       "showDashboard": "disabled",
         *       "allowRealTime": "disabled",
         *       "allowConnections": "disabled",
         *       "allowGroup": false,
         *       "super": false,
         *       "lastLoginAt": "2025-01-31T12:00:00.000Z",
         *       "createdAt": "2025-01-02T09:30:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z"
         *     }
         */
        User: {
            /** @enum {string} */
            allHistoric: "enabled" | "disabled";
            /** @enum {string} */
            allowConnections: "enabled" | "disabled";
            allowGroup: boolean;
            /** @enum {string} */
            allowRealTime: "enabled" | "disabled";
            /** @enum {string} */
            allTicket: "enable" | "disable";
            /** @enum {string} */
            allUserChat: "enabled" | "disabled";
            chatappId: number | null;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            /** @enum {string} */
            defaultMenu: "open" | "closed";
            /** @enum {string} */
            defaultTheme: "light" | "dark";
            defaultTicketsManagerWidth: number;
            email: string;
            endWork: string | null;
            farewellMessage: string | null;
            id: number;
            /** Format: date-time */
            lastLoginAt: string | null;
            mustChangePassword: boolean;
            name: string;
            online: boolean;
            profile: components["schemas"]["Profile"];
            profileImage: string | null;
            /** @enum {string} */
            showDashboard: "enabled" | "disabled";
            startWork: string | null;
            super: boolean;
            /** Format: date-time */
            updatedAt: string;
            /** @enum {string} */
            userClosePendingTicket: "enabled" | "disabled";
        };
        UserAvatarSet: {
            user: components["schemas"]["UserDetails"];
        };
        /**
         * @example {
         *       "message": "User deleted"
         *     }
         */
        UserDeleted: {
            message: string;
        };
        /**
         * @example {
         *       "id": 7,
         *       "companyId": 1,
         *       "name": "Maria Souza",
         *       "email": "maria@acme.com.br",
         *       "profile": "admin",
         *       "mustChangePassword": false,
         *       "online": true,
         *       "profileImage": "7-1f0c.png",
         *       "allTicket": "enable",
         *       "defaultTicketsManagerWidth": 550,
         *       "defaultTheme": "light",
         *       "defaultMenu": "open",
         *       "startWork": "08:00",
         *       "endWork": "18:00",
         *       "farewellMessage": null,
         *       "chatappId": 2,
         *       "allHistoric": "disabled",
         *       "allUserChat": "disabled",
         *       "userClosePendingTicket": "enabled",
         *       "showDashboard": "disabled",
         *       "allowRealTime": "disabled",
         *       "allowConnections": "disabled",
         *       "allowGroup": false,
         *       "super": false,
         *       "lastLoginAt": "2025-01-31T12:00:00.000Z",
         *       "createdAt": "2025-01-02T09:30:00.000Z",
         *       "updatedAt": "2025-01-31T12:00:00.000Z",
         *       "queues": [
         *         {
         *           "id": 4,
         *           "name": "Suporte",
         *           "color": "#0055ff",
         *           "UserQueue": {
         *             "userId": 7,
         *             "queueId": 4
         *           }
         *         }
         *       ],
         *       "company": {
         *         "id": 1,
         *         "name": "Acme Atendimento",
         *         "email": "contato@acme.com.br",
         *         "phone": null,
         *         "document": null,
         *         "status": true,
         *         "planId": 2,
         *         "dueDate": "2025-02-28",
         *         "recurrence": "MENSAL",
         *         "paymentMethod": null
         *       }
         *     }
         */
        UserDetails: {
            /** @enum {string} */
            allHistoric: "enabled" | "disabled";
            /** @enum {string} */
            allowConnections: "enabled" | "disabled";
            allowGroup: boolean;
            /** @enum {string} */
            allowRealTime: "enabled" | "disabled";
            /** @enum {string} */
            allTicket: "enable" | "disable";
            /** @enum {string} */
            allUserChat: "enabled" | "disabled";
            chatappId: number | null;
            company: {
                document: string | null;
                dueDate: string | null;
                email: string | null;
                id: number;
                name: string;
                paymentMethod: string | null;
                phone: string | null;
                planId: number;
                recurrence: string;
                status: boolean;
            } | null;
            companyId: number;
            /** Format: date-time */
            createdAt: string;
            /** @enum {string} */
            defaultMenu: "open" | "closed";
            /** @enum {string} */
            defaultTheme: "light" | "dark";
            defaultTicketsManagerWidth: number;
            email: string;
            endWork: string | null;
            farewellMessage: string | null;
            id: number;
            /** Format: date-time */
            lastLoginAt: string | null;
            mustChangePassword: boolean;
            name: string;
            online: boolean;
            profile: components["schemas"]["Profile"];
            profileImage: string | null;
            queues: {
                color: string;
                id: number;
                name: string;
                UserQueue: {
                    queueId: number;
                    userId: number;
                };
            }[];
            /** @enum {string} */
            showDashboard: "enabled" | "disabled";
            startWork: string | null;
            super: boolean;
            /** Format: date-time */
            updatedAt: string;
            /** @enum {string} */
            userClosePendingTicket: "enabled" | "disabled";
        };
        /**
         * @example {
         *       "users": [
         *         {
         *           "id": 7,
         *           "companyId": 1,
         *           "name": "Maria Souza",
         *           "email": "maria@acme.com.br",
         *           "profile": "admin",
         *           "mustChangePassword": false,
         *           "online": true,
         *           "profileImage": "7-1f0c.png",
         *           "allTicket": "enable",
         *           "defaultTicketsManagerWidth": 550,
         *           "defaultTheme": "light",
         *           "defaultMenu": "open",
         *           "startWork": "08:00",
         *           "endWork": "18:00",
         *           "farewellMessage": null,
         *           "chatappId": 2,
         *           "allHistoric": "disabled",
         *           "allUserChat": "disabled",
         *           "userClosePendingTicket": "enabled",
         *           "showDashboard": "disabled",
         *           "allowRealTime": "disabled",
         *           "allowConnections": "disabled",
         *           "allowGroup": false,
         *           "super": false,
         *           "lastLoginAt": "2025-01-31T12:00:00.000Z",
         *           "createdAt": "2025-01-02T09:30:00.000Z",
         *           "updatedAt": "2025-01-31T12:00:00.000Z",
         *           "queues": [
         *             {
         *               "id": 4,
         *               "name": "Suporte",
         *               "color": "#0055ff",
         *               "UserQueue": {
         *                 "userId": 7,
         *                 "queueId": 4
         *               }
         *             }
         *           ],
         *           "company": {
         *             "id": 1,
         *             "name": "Acme Atendimento",
         *             "email": "contato@acme.com.br",
         *             "phone": null,
         *             "document": null,
         *             "status": true,
         *             "planId": 2,
         *             "dueDate": "2025-02-28",
         *             "recurrence": "MENSAL",
         *             "paymentMethod": null
         *           }
         *         }
         *       ],
         *       "count": 1,
         *       "hasMore": false
         *     }
         */
        UserPage: {
            count: number;
            hasMore: boolean;
            users: components["schemas"]["UserDetails"][];
        };
        /**
         * @example {
         *       "id": 7,
         *       "name": "Maria Souza",
         *       "email": "maria@acme.com.br",
         *       "profile": "admin",
         *       "online": true
         *     }
         */
        UserSummary: {
            email: string;
            id: number;
            name: string;
            online: boolean;
            profile: string;
        };
        /**
         * @example [
         *       {
         *         "id": 7,
         *         "name": "Maria Souza",
         *         "email": "maria@acme.com.br",
         *         "profile": "admin",
         *         "online": true
         *       }
         *     ]
         */
        UserSummaryList: components["schemas"]["UserSummary"][];
        VersionCompatibility: {
            backend: string;
            compatible: boolean;
            frontend: string;
        };
        VersionInfo: {
            name: string;
            /** Format: date-time */
            startedAt: string;
            version: string;
        };
        WebhookChallenge: string;
        /**
         * @example {
         *       "received": true,
         *       "accepted": 2
         *     }
         */
        WebhookReceipt: {
            accepted: number;
            /** @enum {boolean} */
            received: true;
        };
    };
    responses: {
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ERR_INVALID_JSON"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ERR_TAG_NAME_ALREADY_EXISTS"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_AUDIO_TOO_LARGE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_BIZCHAT_PROVIDER_UNAVAILABLE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_BIZCHAT_PROVIDER_UNAVAILABLE-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_BIZCHAT_PROVIDER_UNAVAILABLE-3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CACHE_UNAVAILABLE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CAMPAIGN_STATUS_CONFLICT: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CANNOT_DELETE_PLATFORM_COMPANY: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CATEGORY_NAME_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CATEGORY_NOT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_CATEGORY_NOT_FOUND-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CHATBOT_NOT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CNPJ_NOT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CNPJ_REGISTRY_UNAVAILABLE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_COMPANY_SUSPENDED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CONTACT_LIST_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CONTACT_LIST_ITEM_DUPLICATE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_CONTACT_SELLER_CHANGED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_CONTACT_SELLER_CHANGED-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_DASHBOARD_REFRESH_TOO_SOON: {
            headers: {
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_DUPLICATED_CONTACT: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_EMAIL_ALREADY_EXISTS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_FILE_LIST_NAME_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_FILE_TOO_LARGE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_FLOW_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_FLOW_VERSION_CONFLICT: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_GRAPH_API_UNAVAILABLE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_IDEMPOTENT_REQUEST_IN_PROGRESS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_IMPORT_NOT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_IMPORT_TOO_MANY_ROWS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INTEGRATION_NAME_ALREADY_EXISTS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INTEGRATION_NOT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_CAMPAIGN_SETTING: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_CNPJ: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_CONTACT_LIST_NAME: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_CREDENTIALS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_DATE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_NUMBER: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_PAYMENT_SIGNATURE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_SCHEDULES: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_SIGNATURE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_WEBHOOK_SECRET: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_INVALID_WIDTH: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_MAIL_NOT_CONFIGURED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_MESSAGE_DELETED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_MESSAGE_NOT_SENT: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_ANNOUNCEMENT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_CAMPAIGN_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_CHAT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_CHATAPP_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_COMPANY_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_COMPANY_FOUND-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_COMPANY_TEMPLATE_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_CONNECTION_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_CONNECTION_FOUND-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_CONNECTION_FOUND-3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_CONTACT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_CONTACT_LIST_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_CONTACT_LIST_ITEM_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_FILE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_FILE_LIST_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_FLOW_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_HELP_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_INVOICE_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_OBJSTORE_CONFIG_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_ORDER_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_ORDER_FOUND-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_ORDER_SETTING_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_PARTNER_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_PERMISSION: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-4": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-5": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-6": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-7": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-8": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-9": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-10": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-11": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PERMISSION-12": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_PLAN_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_PROMPT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_NO_PROMPT_FOUND-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_PROXY_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_SCHEDULE_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_SETTING_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_TAG_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_TICKET_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_NO_USER_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_OBJSTORE_CONFIG_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_ORDER_SETTING_EXISTS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_ORDER_STATUS_CONFLICT: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_OTHER_OPEN_TICKET: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PAYMENT_GATEWAY_UNAVAILABLE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PENDING_TICKET_HAS_NO_USER: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PLAN_FEATURE_DISABLED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_PLAN_FEATURE_DISABLED-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_PLAN_FEATURE_DISABLED-3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PLAN_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PLAN_NAME_ALREADY_EXISTS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PRODUCT_IMPORT_IN_PROGRESS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PRODUCT_NOT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_PRODUCT_NOT_FOUND-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PRODUCT_SKU_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PROMPT_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PROXY_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PROXY_INVALID_REASON: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_PROXY_NOT_FOR_CONNECTION: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_QUEUE_NAME_ALREADY_EXISTS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_QUEUE_NOT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_QUEUE_NOT_FOUND-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_QUEUE_OPTION_ALREADY_EXISTS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_QUEUE_OPTION_NOT_FOUND: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_REVOKE_NOT_SUPPORTED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_SCHEDULE_SENDING: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_SESSION_NOT_CONNECTED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_SIGNUP_DISABLED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_TAG_NAME_ALREADY_EXISTS: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_TEMPLATE_SHORTCUT_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_TICKET_CLOSED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "ERR_TICKET_CLOSED-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_TOO_MANY_LOGIN_ATTEMPTS: {
            headers: {
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_TOO_MANY_RESET_REQUESTS: {
            headers: {
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_TRANSCRIPTION_CREDENTIAL_IS_DEFAULT: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_URL_NOT_ALLOWED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_USER_ALREADY_LINKED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_VALIDATION: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        ERR_WEBHOOK_VERIFICATION_FAILED: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error400-28729174": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error401-c0c235b3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-0de00c18": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-4bb35e7f": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-61f0dcc5": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-71c60e80": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-244b99c5": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-244b99c5-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-244b99c5-3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-244b99c5-4": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-244b99c5-5": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-244b99c5-6": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-1517e36e": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-4281bb79": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-10057b55": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-cb91432e": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-cb91432e-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-cb91432e-3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-ec5804a8": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error403-f20ade02": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-0ec45db1": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-1c657543": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-1e6e1106": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-2a8e68d8": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-4ba8adcc": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-4ce245fe": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-6d88cf78": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-9c33701d": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-9f048533": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-20eb1696": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-20eb1696-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-52e0bbe1": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-56cfc96d": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-070c9097": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-98c81559": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-99f10d47": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-224dae00": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-312de39e": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-460d10ee": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-7216ee74": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-20694f62": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-37044a21": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-302868c0": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-17325944": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-20474137": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-34791701": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-a8ee8d60": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-a94c4486": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-ac9c48ee": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-adf49d16": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-adf49d16-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-adf49d16-3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-b089bd19": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-b089bd19-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-b96e0b8b": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-bb9ec504": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-c0f711c2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-c6f4d9c3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-c124a2d2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-d57af9d3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-ea1b61e9": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-f03c5cec": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-f17c2de4": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-f17c2de4-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error404-fa019557": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-2b461f0b": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-5fa5c054": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-7d6eedc0": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-8f87db5a": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-8f87db5a-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-591d2a40": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-691f578e": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-82885670": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-a1746d34": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-b297017e": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-b491340d": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error409-cb93c614": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error413-339f45ea": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-1cb49613": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-1e4127bb": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-2cd298cb": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-2dd70db6": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-2e62d598": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-2f4caf52": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-2f47335f": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-3e5aae3e": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-4cf76003": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-5cf520dd": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-7ab209dd": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-7deeaf6c": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-8c6d0f6b": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-8c228488": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-9a5b4303": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-26a4e4fc": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-060d3145": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-63b0be77": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-69bccc90": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-71d9fa2f": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-74f26d5e": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-93d15a12": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-150cad0a": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-173c368c": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-200e6074": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-323e3ac4": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-513f5b62": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-591d23f3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-877ddefe": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-888e96a4": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-936e18b0": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-972db7f8": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-1084cd26": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-3988c16e": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-06713d5f": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-7753bdd4": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-8672b5a6": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-39539c90": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-47462dda": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-96295ffd": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-97225c25": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-213836b2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-543328a5": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-604526b7": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-639366b4": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-789203a2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-05666847": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-9975840d": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-47909860": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-a605dc00": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-ab84c912": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-b422a4eb": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-b840f17b": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-b2213053": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-b5398617": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-bb009772": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-bd9e8fe1": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-bd9e8fe1-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-c6e9c621": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-c4402144": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-cb7e9895": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-cfe530e9": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-d70bc742": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-d75f8cc6": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-d00766b2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-d902056c": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-de749437": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-defa7c23": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-e0e8f283": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-e45c47b6": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-e598a3b7": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-e604dd54": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-f033d62c": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-f0492ced": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-f3848155": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-fb7f324c": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error422-fc7ec073": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error503-653ef9c7": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error503-66610fb9": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error503-66610fb9-2": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error503-104093c3": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error503-a81edd1b": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error503-b6eea052": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        "Error503-f6182128": {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ERR_PASSWORD_CHANGE_REQUIRED"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "Internal server error"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ERR_NO_TAG_FOUND"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ERR_BODY_TOO_LARGE"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        ServiceUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ERR_CNPJ_REGISTRY_UNAVAILABLE"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        TooManyRequests: {
            headers: {
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ERR_TOO_MANY_LOGIN_ATTEMPTS"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ERR_SESSION_EXPIRED"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ERR_UNSUPPORTED_CONTENT_TYPE"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        ValidationFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": "ERR_VALIDATION",
                 *       "fields": [
                 *         {
                 *           "path": "body.name",
                 *           "message": "Invalid input: expected string, received number"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        ChatappId: number;
        ChatappIdQuery: number;
        Chatapps: number[];
        ChatbotId: number;
        CompanyId: number;
        CompanyId2: unknown;
        CompanyId3: string;
        CompanyIdQuery: number;
        ContactId: number;
        Date: string;
        DateEnd: string;
        DateFrom: string;
        DateFromQuery: string;
        DateStart: string;
        DateTo: string;
        DateToQuery: string;
        Days: number;
        FileId: number;
        FinalDate: string;
        FlowId: number;
        HubChallenge: string;
        HubMode: string;
        HubVerifyToken: string;
        Id: number;
        IdempotencyKey: string;
        InitialDate: string;
        IntegrationId: number;
        IsGroup: boolean | ("0" | "1" | "true" | "false");
        Kanban: boolean | ("0" | "1" | "true" | "false");
        Kind: "chatapp" | "socialnet" | "bizchat";
        MessageId: string;
        NodeId: string;
        OrderId: number;
        PageNumber: number;
        ProductId: number;
        PromptId: number;
        Provider: "sandbox" | "baileys" | "messenger" | "instagram" | "cloudapi";
        QueueId: number;
        QueueIds: number[];
        QueueIds2: number[];
        QueueIdsQuery: number[];
        QueueOptionId: number;
        QueuesIds: number[];
        ScheduleId: number;
        SearchOnMessages: boolean | ("0" | "1" | "true" | "false");
        SearchParam: string;
        SearchParamQuery: string;
        SettingKey: string;
        ShowAll: boolean | ("0" | "1" | "true" | "false");
        ShowAllQuery: boolean | ("0" | "1" | "true" | "false");
        SortTickets: "ASC" | "DESC";
        Status: "OPENING" | "qrcode" | "CONNECTED" | "DISCONNECTED" | "PENDING";
        Status2: "open" | "pending";
        StatusFilter: ("pending" | "open" | "closed" | "search" | "group")[];
        StatusQuery: "pending" | "open" | "closed" | "search" | "group";
        TagId: number;
        Tags: number[];
        TicketId: number;
        TicketIdPath: number | string;
        UpdatedAt: string;
        UserId: number;
        UserIdQuery: number;
        UserIds: number[];
        UserIdsQuery: number[];
        Users: number[];
        WithUnreadMessages: boolean | ("0" | "1" | "true" | "false");
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getRoot: {
        parameters: {
            query?: {
                "hub.challenge"?: components["parameters"]["HubChallenge"];
                "hub.mode"?: components["parameters"]["HubMode"];
                "hub.verify_token"?: components["parameters"]["HubVerifyToken"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": components["schemas"]["WebhookChallenge"];
                };
            };
            403: components["responses"]["ERR_WEBHOOK_VERIFICATION_FAILED"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postRoot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookReceipt"];
                };
            };
            400: components["responses"]["Error400-28729174"];
            401: components["responses"]["ERR_INVALID_SIGNATURE"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ERR_VALIDATION"];
            500: components["responses"]["InternalError"];
        };
    };
    optimizePrompt: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    config?: components["schemas"]["Config"];
                    goal?: string;
                    language?: string;
                    prompt: string;
                    promptId?: number;
                    tone?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OptimizedPrompt"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            404: components["responses"]["ERR_NO_PROMPT_FOUND-2"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-1cb49613"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-a81edd1b"];
        };
    };
    listAnnouncements: {
        parameters: {
            query?: {
                companyId?: number;
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
                status?: boolean | ("0" | "1" | "true" | "false");
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnouncementPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createAnnouncement: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    endsAt?: string | null;
                    priority?: number | string;
                    startsAt?: string | null;
                    status?: boolean | ("0" | "1" | "true" | "false");
                    targetCompanyIds?: number[] | null;
                    text?: string | null;
                    title?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Announcement"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-5"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND-2"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-5cf520dd"];
            500: components["responses"]["InternalError"];
        };
    };
    showAnnouncement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Announcement"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_ANNOUNCEMENT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updateAnnouncement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    endsAt?: string | null;
                    priority?: number | string;
                    startsAt?: string | null;
                    status?: boolean | ("0" | "1" | "true" | "false");
                    targetCompanyIds?: number[] | null;
                    text?: string | null;
                    title?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Announcement"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-5"];
            404: components["responses"]["Error404-bb9ec504"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-5cf520dd"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteAnnouncement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-5"];
            404: components["responses"]["ERR_NO_ANNOUNCEMENT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    setAnnouncementMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnouncementMedia"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-5"];
            404: components["responses"]["ERR_NO_ANNOUNCEMENT_FOUND"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-b5398617"];
            500: components["responses"]["InternalError"];
        };
    };
    removeAnnouncementMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnouncementMedia"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-5"];
            404: components["responses"]["ERR_NO_ANNOUNCEMENT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listAllAnnouncements: {
        parameters: {
            query?: {
                companyId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnnouncementList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiChatappMicroserviceWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    chatappId: number;
                    events: ({
                        /** Format: date-time */
                        at?: string;
                        body: string;
                        contacts?: {
                            name: string;
                            /**
                             * @default []
                             * @example [
                             *       "+55 11 98888-7777"
                             *     ]
                             */
                            numbers?: string[];
                            vcard?: string;
                        }[];
                        from: string;
                        /** @default false */
                        isGroup?: boolean;
                        location?: {
                            address?: string;
                            latitude: number;
                            longitude: number;
                            name?: string;
                            url?: string;
                        };
                        providerMessageId: string;
                        /** @default  */
                        senderName?: string;
                        /** @enum {string} */
                        type: "InboundMessage";
                    } | {
                        /** Format: date-time */
                        at?: string;
                        providerMessageId: string;
                        /** @enum {string} */
                        status: "sent" | "delivered" | "read" | "played" | "failed";
                        /** @enum {string} */
                        type: "MessageStatusChanged";
                    } | {
                        /** Format: date-time */
                        at?: string;
                        /** @default null */
                        qrcode?: string | null;
                        /** @enum {string} */
                        status: "OPENING" | "qrcode" | "CONNECTED" | "DISCONNECTED" | "PENDING";
                        /** @enum {string} */
                        type: "SessionStatusChanged";
                    })[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookReceipt"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ERR_INVALID_WEBHOOK_SECRET"];
            404: components["responses"]["ERR_NO_CHATAPP_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiCompanies: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiCompanies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    adminEmail?: string;
                    adminName?: string;
                    document?: string | null;
                    dueDate?: string | null;
                    /** Format: email */
                    email?: string | null;
                    name: string;
                    password: string;
                    paymentMethod?: string | null;
                    phone?: string | null;
                    planId: number;
                    /** @enum {string} */
                    recurrence?: "MENSAL" | "BIMESTRAL" | "TRIMESTRAL" | "SEMESTRAL" | "ANUAL";
                    status?: boolean;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OnboardedCompany"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_PLAN_FOUND"];
            409: components["responses"]["ERR_EMAIL_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-b2213053"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiCompaniesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Company"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putApiCompaniesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    document?: string | null;
                    dueDate?: string | null;
                    /** Format: email */
                    email?: string | null;
                    name?: string;
                    paymentMethod?: string | null;
                    phone?: string | null;
                    planId?: number;
                    /** @enum {string} */
                    recurrence?: "MENSAL" | "BIMESTRAL" | "TRIMESTRAL" | "SEMESTRAL" | "ANUAL";
                    status?: boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Company"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["Error404-ea1b61e9"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-b2213053"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteApiCompaniesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND"];
            422: components["responses"]["ERR_CANNOT_DELETE_PLATFORM_COMPANY"];
            500: components["responses"]["InternalError"];
        };
    };
    putApiCompaniesByIdSchedules: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    schedules: ({
                        endTimeA: string;
                        endTimeB: string;
                        startTimeA: string;
                        startTimeB: string;
                        weekday: string;
                        /** @enum {string} */
                        weekdayEn: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
                    } | {
                        endTime: string;
                        startTime: string;
                        weekday: string;
                        /** @enum {string} */
                        weekdayEn: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
                    })[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Company"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_INVALID_SCHEDULES"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiCompaniesEmailByEmail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Company"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiContacts: {
        parameters: {
            query?: {
                companyId?: components["parameters"]["CompanyIdQuery"];
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlatformContactPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiContactsCount: {
        parameters: {
            query?: {
                companyId?: components["parameters"]["CompanyIdQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlatformContactCount"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiHelps: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HelpPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiHelps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    link?: string | null;
                    title: string;
                    video?: string | null;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Help"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-888e96a4"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiHelpsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Help"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_HELP_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putApiHelpsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    description?: string | null;
                    link?: string | null;
                    title?: string;
                    video?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Help"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_HELP_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-888e96a4"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteApiHelpsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_HELP_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiInvoices: {
        parameters: {
            query?: {
                companyId?: number;
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoicePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiInvoices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    companyId: number;
                    detail: string;
                    dueDate: string;
                    /** @enum {string} */
                    status?: "open" | "paid" | "cancelled";
                    value: string | number;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-74f26d5e"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiInvoicesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_INVOICE_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putApiInvoicesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    detail?: string;
                    dueDate?: string;
                    /** @enum {string} */
                    status?: "open" | "paid" | "cancelled";
                    value?: string | number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_INVOICE_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-74f26d5e"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteApiInvoicesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_INVOICE_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiInvoicesCompanyByCompanyId: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path: {
                companyId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoicePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiMessagesCheckNumber: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    number: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckNumberResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["ERR_SESSION_NOT_CONNECTED"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_INVALID_NUMBER"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiMessagesSend: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default  */
                    body?: string;
                    closeTicket?: boolean | ("0" | "1" | "true" | "false");
                    number: string;
                    queueId?: "" | null | number | string;
                    sendSignature?: boolean | ("0" | "1" | "true" | "false");
                    userId?: "" | null | number | string;
                };
                "multipart/form-data": {
                    /** @default  */
                    body?: string;
                    closeTicket?: boolean | ("0" | "1" | "true" | "false");
                    medias?: string[];
                    number: string;
                    queueId?: "" | null | number | string;
                    sendSignature?: boolean | ("0" | "1" | "true" | "false");
                    userId?: "" | null | number | string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiSendResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_COMPANY_SUSPENDED"];
            404: components["responses"]["Error404-adf49d16"];
            409: components["responses"]["ERR_IDEMPOTENT_REQUEST_IN_PROGRESS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-789203a2"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiMessagesSendButton: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                    buttons: {
                        id?: string;
                        text: string;
                    }[];
                    closeTicket?: boolean | ("0" | "1" | "true" | "false");
                    number: string;
                    queueId?: "" | null | number | string;
                    sendSignature?: boolean | ("0" | "1" | "true" | "false");
                    userId?: "" | null | number | string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiSendResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_COMPANY_SUSPENDED"];
            404: components["responses"]["Error404-adf49d16"];
            409: components["responses"]["ERR_IDEMPOTENT_REQUEST_IN_PROGRESS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-173c368c"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiMessagesSendList: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                    buttonText: string;
                    closeTicket?: boolean | ("0" | "1" | "true" | "false");
                    number: string;
                    queueId?: "" | null | number | string;
                    sections: {
                        rows: {
                            description?: string;
                            id?: string;
                            title: string;
                        }[];
                        /** @default  */
                        title?: string;
                    }[];
                    sendSignature?: boolean | ("0" | "1" | "true" | "false");
                    /** @default  */
                    title?: string;
                    userId?: "" | null | number | string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiSendResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_COMPANY_SUSPENDED"];
            404: components["responses"]["Error404-adf49d16"];
            409: components["responses"]["ERR_IDEMPOTENT_REQUEST_IN_PROGRESS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-173c368c"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiMessagesSendLinkImage: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default  */
                    body?: string;
                    closeTicket?: boolean | ("0" | "1" | "true" | "false");
                    number: string;
                    queueId?: "" | null | number | string;
                    sendSignature?: boolean | ("0" | "1" | "true" | "false");
                    url: string;
                    userId?: "" | null | number | string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiSendResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_COMPANY_SUSPENDED"];
            404: components["responses"]["Error404-adf49d16"];
            409: components["responses"]["ERR_IDEMPOTENT_REQUEST_IN_PROGRESS"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-e604dd54"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiMessagesRange: {
        parameters: {
            query: {
                companyId?: number;
                dateFrom: string;
                dateTo: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageRangeCount"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["Error422-fb7f324c"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiPartners: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PartnerPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiPartners: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    commission?: string | number;
                    document?: string | null;
                    /** Format: email */
                    email?: string | null;
                    name: string;
                    phone?: string | null;
                    /** @enum {string} */
                    typeCommission?: "percent" | "fixed";
                    walletId?: string | null;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Partner"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-604526b7"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiPartnersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Partner"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_PARTNER_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putApiPartnersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    commission?: string | number;
                    document?: string | null;
                    /** Format: email */
                    email?: string | null;
                    name?: string;
                    phone?: string | null;
                    /** @enum {string} */
                    typeCommission?: "percent" | "fixed";
                    walletId?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Partner"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_PARTNER_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-604526b7"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteApiPartnersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_PARTNER_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiPlans: {
        parameters: {
            query?: {
                searchParam?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postApiPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    amount?: string | number;
                    connections?: number;
                    isPublic?: boolean;
                    name: string;
                    queues?: number;
                    /** @enum {string} */
                    recurrence?: "MENSAL" | "BIMESTRAL" | "TRIMESTRAL" | "SEMESTRAL" | "ANUAL";
                    trial?: boolean;
                    trialDays?: number;
                    useCampaigns?: boolean;
                    useExternalApi?: boolean;
                    useIntegrations?: boolean;
                    useInternalChat?: boolean;
                    useKanban?: boolean;
                    useOpenAi?: boolean;
                    users?: number;
                    useSchedules?: boolean;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["ERR_PLAN_NAME_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-26a4e4fc"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiPlansById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_PLAN_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putApiPlansById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    amount?: string | number;
                    connections?: number;
                    isPublic?: boolean;
                    name?: string;
                    queues?: number;
                    /** @enum {string} */
                    recurrence?: "MENSAL" | "BIMESTRAL" | "TRIMESTRAL" | "SEMESTRAL" | "ANUAL";
                    trial?: boolean;
                    trialDays?: number;
                    useCampaigns?: boolean;
                    useExternalApi?: boolean;
                    useIntegrations?: boolean;
                    useInternalChat?: boolean;
                    useKanban?: boolean;
                    useOpenAi?: boolean;
                    users?: number;
                    useSchedules?: boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_PLAN_FOUND"];
            409: components["responses"]["ERR_PLAN_NAME_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-26a4e4fc"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteApiPlansById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_PLAN_FOUND"];
            409: components["responses"]["ERR_PLAN_IN_USE"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getApiUsersByEmail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["ERR_NO_USER_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getAuthConsultaCnpjByCnpj: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                cnpj: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CnpjRecord"];
                };
            };
            404: components["responses"]["ERR_CNPJ_NOT_FOUND"];
            422: components["responses"]["ERR_INVALID_CNPJ"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ERR_CNPJ_REGISTRY_UNAVAILABLE"];
        };
    };
    postAuthForgotPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordResetRequested"];
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["ERR_TOO_MANY_RESET_REQUESTS"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ERR_MAIL_NOT_CONFIGURED"];
        };
    };
    postAuthLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["ERR_INVALID_CREDENTIALS"];
            403: components["responses"]["Error403-0de00c18"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["ERR_TOO_MANY_LOGIN_ATTEMPTS"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteAuthLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoggedOut"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    getAuthMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDetails"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_USER_FOUND"];
            500: components["responses"]["InternalError"];
        };
    };
    postAuthRefreshToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshResult"];
                };
            };
            401: components["responses"]["Error401-c0c235b3"];
            403: components["responses"]["ERR_COMPANY_SUSPENDED"];
            500: components["responses"]["InternalError"];
        };
    };
    postAuthResetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    token: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasswordReset"];
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-9a5b4303"];
            500: components["responses"]["InternalError"];
        };
    };
    postAuthSignup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    companyName: string;
                    document?: string;
                    /** Format: email */
                    email: string;
                    name: string;
                    password: string;
                    phone?: string;
                    planId: number;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OnboardedCompany"];
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["ERR_SIGNUP_DISABLED"];
            404: components["responses"]["ERR_NO_PLAN_FOUND"];
            409: components["responses"]["ERR_EMAIL_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-d75f8cc6"];
            500: components["responses"]["InternalError"];
        };
    };
    getBizchatTemplates: {
        parameters: {
            query: {
                chatappId: number;
                refresh?: boolean | ("0" | "1" | "true" | "false");
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        syncedAt: string | null;
                        templates: components["schemas"]["BizchatTemplate"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND-3"];
            422: components["responses"]["Error422-d00766b2"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ERR_BIZCHAT_PROVIDER_UNAVAILABLE-2"];
        };
    };
    listCampaignSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignSettingList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            500: components["responses"]["InternalError"];
        };
    };
    saveCampaignSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    settings: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignSettingList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_INVALID_CAMPAIGN_SETTING"];
            500: components["responses"]["InternalError"];
        };
    };
    listCampaigns: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    chatappId?: number | string | null | "" | false;
                    confirmation?: (boolean | ("0" | "1" | "true" | "false")) | null;
                    confirmationMessage1?: string | null;
                    confirmationMessage2?: string | null;
                    confirmationMessage3?: string | null;
                    confirmationMessage4?: string | null;
                    confirmationMessage5?: string | null;
                    contactListId?: number | string | null | "";
                    message1?: string | null;
                    message2?: string | null;
                    message3?: string | null;
                    message4?: string | null;
                    message5?: string | null;
                    name: string | null;
                    openTicket?: ("enabled" | "disabled") | "" | null;
                    /** @example null */
                    queueId?: number | string | null | "";
                    scheduledAt?: string | null;
                    status?: ("INATIVA" | "PROGRAMADA" | "EM_ANDAMENTO" | "PAUSADA" | "CANCELADA" | "FINALIZADA" | "FALHOU") | "" | null;
                    statusTicket?: ("open" | "pending" | "closed") | "" | null;
                    tagListId?: number | string | null | "" | "Nenhuma";
                    /** @example null */
                    userId?: number | string | null | "";
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["Error404-302868c0"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-3988c16e"];
            500: components["responses"]["InternalError"];
        };
    };
    showCampaign: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                state?: "pending" | "sent" | "delivered" | "read" | "failed" | "skipped";
            };
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CAMPAIGN_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updateCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    chatappId?: number | string | null | "" | false;
                    confirmation?: (boolean | ("0" | "1" | "true" | "false")) | null;
                    confirmationMessage1?: string | null;
                    confirmationMessage2?: string | null;
                    confirmationMessage3?: string | null;
                    confirmationMessage4?: string | null;
                    confirmationMessage5?: string | null;
                    contactListId?: number | string | null | "";
                    message1?: string | null;
                    message2?: string | null;
                    message3?: string | null;
                    message4?: string | null;
                    message5?: string | null;
                    name?: string | null;
                    openTicket?: ("enabled" | "disabled") | "" | null;
                    /** @example null */
                    queueId?: number | string | null | "";
                    scheduledAt?: string | null;
                    status?: ("INATIVA" | "PROGRAMADA" | "EM_ANDAMENTO" | "PAUSADA" | "CANCELADA" | "FINALIZADA" | "FALHOU") | "" | null;
                    statusTicket?: ("open" | "pending" | "closed") | "" | null;
                    tagListId?: number | string | null | "" | "Nenhuma";
                    /** @example null */
                    userId?: number | string | null | "";
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Campaign"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["Error404-070c9097"];
            409: components["responses"]["ERR_CAMPAIGN_STATUS_CONFLICT"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-3988c16e"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CAMPAIGN_FOUND"];
            409: components["responses"]["ERR_CAMPAIGN_STATUS_CONFLICT"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    cancelCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CAMPAIGN_FOUND"];
            409: components["responses"]["ERR_CAMPAIGN_STATUS_CONFLICT"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    setCampaignMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignMediaChanged"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CAMPAIGN_FOUND"];
            409: components["responses"]["ERR_CAMPAIGN_STATUS_CONFLICT"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-bd9e8fe1"];
            500: components["responses"]["InternalError"];
        };
    };
    removeCampaignMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignMediaChanged"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CAMPAIGN_FOUND"];
            409: components["responses"]["ERR_CAMPAIGN_STATUS_CONFLICT"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    restartCampaign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CAMPAIGN_FOUND"];
            409: components["responses"]["ERR_CAMPAIGN_STATUS_CONFLICT"];
            422: components["responses"]["Error422-63b0be77"];
            500: components["responses"]["InternalError"];
        };
    };
    listAllCampaigns: {
        parameters: {
            query?: {
                companyId?: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CampaignList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getCategories: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postCategories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    active?: boolean;
                    description?: string;
                    name?: string;
                    parentId?: number | null;
                    position?: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_CATEGORY_NOT_FOUND"];
            409: components["responses"]["ERR_CATEGORY_NAME_IN_USE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-bb009772"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteCategories: {
        parameters: {
            query?: {
                detach?: boolean | ("0" | "1" | "true" | "false");
                ids?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    detach?: boolean;
                    /**
                     * @example [
                     *       4,
                     *       7
                     *     ]
                     */
                    ids?: number[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoriesDeleted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_CATEGORY_NOT_FOUND-2"];
            409: components["responses"]["Error409-b297017e"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putCategoriesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    active?: boolean;
                    description?: string;
                    name?: string;
                    parentId?: number | null;
                    position?: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_CATEGORY_NOT_FOUND"];
            409: components["responses"]["ERR_CATEGORY_NAME_IN_USE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-bb009772"];
            500: components["responses"]["InternalError"];
        };
    };
    getCategoriesAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryArray"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    getChatappAdminByChatappId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionWithQueues"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-2"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putChatappAdminByChatappId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PutChatappByChatappIdBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionWithQueues"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-2"];
            404: components["responses"]["Error404-4ce245fe"];
            409: components["responses"]["Error409-2b461f0b"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-b422a4eb"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-104093c3"];
        };
    };
    deleteChatappAdminByChatappId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-2"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postChatappRestart: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionsRestarted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            500: components["responses"]["InternalError"];
        };
    };
    getChatapp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionWithQueues"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    postChatapp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    complationMessage?: string | null;
                    externalId?: string | null;
                    farewellMessage?: string | null;
                    greetingMessage?: string | null;
                    isDefault?: boolean;
                    /** @enum {string} */
                    kind?: "chatapp" | "bizchat";
                    name: string;
                    outOfHoursMessage?: string | null;
                    promptId?: number | null;
                    provider?: ("sandbox" | "baileys" | "messenger" | "instagram" | "cloudapi") | ("beta" | "stable");
                    queueIds?: number[];
                    reopenWindowMinutes?: number;
                    secrets?: {
                        [key: string]: string;
                    };
                    token?: string | null;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionWithQueues"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-4bb35e7f"];
            404: components["responses"]["Error404-b089bd19"];
            409: components["responses"]["Error409-691f578e"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-71d9fa2f"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ERR_BIZCHAT_PROVIDER_UNAVAILABLE"];
        };
    };
    getChatappByChatappId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionWithQueues"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putChatappByChatappId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PutChatappByChatappIdBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionWithQueues"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["Error404-4ce245fe"];
            409: components["responses"]["Error409-2b461f0b"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-b422a4eb"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-104093c3"];
        };
    };
    deleteChatappByChatappId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postChatappByChatappIdMediaUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_NO_FILE"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteChatappByChatappIdMediaUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getChatappAll: {
        parameters: {
            query?: {
                kind?: components["parameters"]["Kind"];
                provider?: components["parameters"]["Provider"];
                status?: components["parameters"]["Status"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-2"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getChatappFilter: {
        parameters: {
            query?: {
                kind?: components["parameters"]["Kind"];
                provider?: components["parameters"]["Provider"];
                status?: components["parameters"]["Status"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionWithQueues"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putChatappsessionByChatappId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PostChatappsessionByChatappIdBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-7deeaf6c"];
            500: components["responses"]["InternalError"];
        };
    };
    postChatappsessionByChatappId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PostChatappsessionByChatappIdBody"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-7deeaf6c"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteChatappsessionByChatappId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getChatbot: {
        parameters: {
            query?: {
                chatbotId?: number;
                pageNumber?: components["parameters"]["PageNumber"];
                queueId?: number;
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatbotPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postChatbot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @example null */
                    chatbotId?: number | "" | null;
                    closeTicket?: boolean;
                    /** @example null */
                    forwardQueueId?: number | "" | null;
                    /** @example null */
                    forwardUserId?: number | "" | null;
                    greetingMessage?: string | null;
                    name?: string;
                    option?: string | number;
                    options?: components["schemas"]["ChatbotStep"][];
                    /** @example null */
                    optQueueId?: number | "" | null;
                    /** @example null */
                    optUserId?: number | "" | null;
                    queueId?: number;
                    /** @enum {string} */
                    queueType?: "text" | "queue" | "attendent" | "integration" | "file" | "";
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chatbot"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["Error404-34791701"];
            409: components["responses"]["ERR_QUEUE_OPTION_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-2f4caf52"];
            500: components["responses"]["InternalError"];
        };
    };
    getChatbotByChatbotId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatbotId: components["parameters"]["ChatbotId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatbotTree"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_CHATBOT_NOT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putChatbotByChatbotId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatbotId: components["parameters"]["ChatbotId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @example null */
                    chatbotId?: number | "" | null;
                    closeTicket?: boolean;
                    /** @example null */
                    forwardQueueId?: number | "" | null;
                    /** @example null */
                    forwardUserId?: number | "" | null;
                    greetingMessage?: string | null;
                    name?: string;
                    option?: string | number;
                    options?: components["schemas"]["ChatbotStep"][];
                    /** @example null */
                    optQueueId?: number | "" | null;
                    /** @example null */
                    optUserId?: number | "" | null;
                    queueId?: number;
                    /** @enum {string} */
                    queueType?: "text" | "queue" | "attendent" | "integration" | "file" | "";
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chatbot"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["Error404-34791701"];
            409: components["responses"]["ERR_QUEUE_OPTION_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-7753bdd4"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteChatbotByChatbotId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatbotId: components["parameters"]["ChatbotId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatbotDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_CHATBOT_NOT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listChats: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createChat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    users?: {
                        id: number;
                    }[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chat"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED"];
            404: components["responses"]["ERR_NO_USER_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-150cad0a"];
            500: components["responses"]["InternalError"];
        };
    };
    showChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number | string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chat"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED"];
            404: components["responses"]["ERR_NO_CHAT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updateChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    title?: string;
                    users?: {
                        id: number;
                    }[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chat"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-3"];
            404: components["responses"]["Error404-20694f62"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-150cad0a"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-3"];
            404: components["responses"]["ERR_NO_CHAT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listChatMessages: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
            };
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessagePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED"];
            404: components["responses"]["ERR_NO_CHAT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    sendChatMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    message?: string;
                };
                "multipart/form-data": {
                    medias?: string[];
                    message?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatMessage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED"];
            404: components["responses"]["ERR_NO_CHAT_FOUND"];
            413: components["responses"]["Error413-339f45ea"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-f033d62c"];
            500: components["responses"]["InternalError"];
        };
    };
    markChatRead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    userId?: unknown;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Chat"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED"];
            404: components["responses"]["ERR_NO_CHAT_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postClosedimportedByChatappId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportedTicketsClosed"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompanies: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postCompanies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    adminEmail?: string;
                    adminName?: string;
                    document?: string | null;
                    dueDate?: string | null;
                    /** Format: email */
                    email?: string | null;
                    name: string;
                    password?: string;
                    passwordDefault?: string;
                    paymentMethod?: string | null;
                    phone?: string | null;
                    planId?: number | null;
                    /** @enum {string|null} */
                    recurrence?: "MENSAL" | "BIMESTRAL" | "TRIMESTRAL" | "SEMESTRAL" | "ANUAL" | null;
                    status?: boolean;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OnboardedCompany"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_PLAN_FOUND"];
            409: components["responses"]["ERR_EMAIL_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-fc7ec073"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompaniesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Company"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putCompaniesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    document?: string | null;
                    dueDate?: string | null;
                    /** Format: email */
                    email?: string | null;
                    name?: string;
                    paymentMethod?: string | null;
                    phone?: string | null;
                    planId?: number | null;
                    /** @enum {string|null} */
                    recurrence?: "MENSAL" | "BIMESTRAL" | "TRIMESTRAL" | "SEMESTRAL" | "ANUAL" | null;
                    status?: boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Company"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-10057b55"];
            404: components["responses"]["Error404-ea1b61e9"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-3e5aae3e"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteCompaniesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND"];
            422: components["responses"]["Error422-9975840d"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompaniesByIdDiskUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyDiskUsage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putCompaniesByIdSchedules: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    schedules: ({
                        endTimeA: string;
                        endTimeB: string;
                        startTimeA: string;
                        startTimeB: string;
                        weekday: string;
                        /** @enum {string} */
                        weekdayEn: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
                    } | {
                        endTime: string;
                        startTime: string;
                        weekday: string;
                        /** @enum {string} */
                        weekdayEn: "sunday" | "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday";
                    })[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Company"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_INVALID_SCHEDULES"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompaniesList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyRowList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompaniesListPlanById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyWithPlan"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_COMPANY_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompaniesPlan: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyRowPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompanyTemplates: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyTemplatePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postCompanyTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    category?: string | null;
                    global?: boolean | ("0" | "1" | "true" | "false" | "");
                    message: string;
                    shortcut: string;
                };
                "multipart/form-data": {
                    category?: string | null;
                    global?: boolean | ("0" | "1" | "true" | "false" | "");
                    /** Format: binary */
                    media?: string;
                    message: string;
                    shortcut: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyTemplate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-8"];
            409: components["responses"]["ERR_TEMPLATE_SHORTCUT_IN_USE"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-8c6d0f6b"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompanyTemplatesById: {
        parameters: {
            query?: {
                ticketId?: number;
            };
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyTemplateRendered"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-9"];
            404: components["responses"]["Error404-7216ee74"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putCompanyTemplatesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    category?: string | null;
                    global?: boolean | ("0" | "1" | "true" | "false" | "");
                    message?: string;
                    removeMedia?: boolean | ("0" | "1" | "true" | "false" | "");
                    shortcut?: string;
                };
                "multipart/form-data": {
                    category?: string | null;
                    global?: boolean | ("0" | "1" | "true" | "false" | "");
                    /** Format: binary */
                    media?: string;
                    message?: string;
                    removeMedia?: boolean | ("0" | "1" | "true" | "false" | "");
                    shortcut?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyTemplate"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-8"];
            404: components["responses"]["ERR_NO_COMPANY_TEMPLATE_FOUND"];
            409: components["responses"]["ERR_TEMPLATE_SHORTCUT_IN_USE"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-8c6d0f6b"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteCompanyTemplatesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanyTemplateDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-10"];
            404: components["responses"]["ERR_NO_COMPANY_TEMPLATE_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompanySettingOne: {
        parameters: {
            query: {
                column: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanySettingOne"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_SETTING_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompanySettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanySettingsObject"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    putCompanySettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    column: string;
                    data: string | number | boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Setting"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_SETTING_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-47909860"];
            500: components["responses"]["InternalError"];
        };
    };
    getCompanySettingsByCompanyId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                companyId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompanySettingsObject"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_SETTING_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactListItems: {
        parameters: {
            query?: {
                contactListId?: number;
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListItemPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CONTACT_LIST_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postContactListItems: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contactListId: number;
                    email?: string | null;
                    name?: string;
                    number?: string | number;
                    /**
                     * @example {
                     *       "empresa": "Acme",
                     *       "plano": "Pro"
                     *     }
                     */
                    variables?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CONTACT_LIST_FOUND"];
            409: components["responses"]["ERR_CONTACT_LIST_ITEM_DUPLICATE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-2e62d598"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactListItemsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListItem"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CONTACT_LIST_ITEM_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putContactListItemsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    email?: string | null;
                    name?: string;
                    number?: string | number;
                    /**
                     * @example {
                     *       "empresa": "Acme",
                     *       "plano": "Pro"
                     *     }
                     */
                    variables?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListItem"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CONTACT_LIST_ITEM_FOUND"];
            409: components["responses"]["ERR_CONTACT_LIST_ITEM_DUPLICATE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-2e62d598"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteContactListItemsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListItemDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CONTACT_LIST_ITEM_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactListItemsList: {
        parameters: {
            query: {
                companyId?: components["parameters"]["CompanyId2"];
                contactListId: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListItemArray"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CONTACT_LIST_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactLists: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postContactLists: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_INVALID_CONTACT_LIST_NAME"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactListsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CONTACT_LIST_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putContactListsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    name?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CONTACT_LIST_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_INVALID_CONTACT_LIST_NAME"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteContactListsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CONTACT_LIST_FOUND"];
            409: components["responses"]["ERR_CONTACT_LIST_IN_USE"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postContactListsByIdUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                };
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListImport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            404: components["responses"]["ERR_NO_CONTACT_LIST_FOUND"];
            413: components["responses"]["ERR_IMPORT_TOO_MANY_ROWS"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-05666847"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactListsList: {
        parameters: {
            query?: {
                companyId?: components["parameters"]["CompanyId2"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactListArray"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-2"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putContactSellersAssignByContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    userId: number | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResponsibleSeller"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-11"];
            404: components["responses"]["Error404-37044a21"];
            409: components["responses"]["ERR_CONTACT_SELLER_CHANGED-2"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactSellersResponsibleByContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResponsibleSeller"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactSellersSellers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SellerList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    putContactWalletByContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    userId: number | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["Error404-37044a21"];
            409: components["responses"]["ERR_CONTACT_SELLER_CHANGED"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getContacts: {
        parameters: {
            query?: {
                contactTag?: number[];
                "contactTag[]"?: number | number[];
                dateEnd?: string;
                dateStart?: string;
                isGroup?: boolean | ("0" | "1" | "true" | "false");
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ERR_INVALID_DATE"];
            500: components["responses"]["InternalError"];
        };
    };
    postContacts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    acceptAudioMessage?: boolean;
                    active?: boolean;
                    blocked?: boolean;
                    disableBot?: boolean;
                    email?: string | null;
                    extraInfo?: components["schemas"]["ExtraInfo"];
                    identifiers?: components["schemas"]["Identifiers"];
                    name?: string;
                    number: string | number;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["ERR_DUPLICATED_CONTACT"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-e598a3b7"];
            500: components["responses"]["InternalError"];
        };
    };
    contactsReport: {
        parameters: {
            query?: {
                ddds?: string[];
                "ddds[]"?: string[];
                endDate?: string;
                format?: "json" | "csv";
                pageNumber?: number;
                searchParam?: string;
                startDate?: string;
                tags?: number[];
                "tags[]"?: number[];
                wallets?: unknown;
                "wallets[]"?: unknown;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactsReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_TAG_FOUND"];
            422: components["responses"]["Error422-213836b2"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactsByContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactDetails"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putContactsByContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    acceptAudioMessage?: boolean;
                    active?: boolean;
                    blocked?: boolean;
                    disableBot?: boolean;
                    email?: string | null;
                    extraInfo?: components["schemas"]["ExtraInfo"];
                    identifiers?: components["schemas"]["Identifiers"];
                    name?: string;
                    number?: string | number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            409: components["responses"]["ERR_DUPLICATED_CONTACT"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-cb7e9895"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteContactsByContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putContactsByContactIdLinkUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    userId: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["Error404-37044a21"];
            409: components["responses"]["ERR_USER_ALREADY_LINKED"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putContactsByContactIdUnlinkUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactDetails"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putContactsBlockByContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    active?: boolean;
                    blocked?: boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postContactsImport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    chatappId?: number;
                    connectionId?: number;
                };
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactImportStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["Error404-460d10ee"];
            409: components["responses"]["Error409-82885670"];
            413: components["responses"]["ERR_IMPORT_TOO_MANY_ROWS"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactsList: {
        parameters: {
            query?: {
                limit?: number;
                searchParam?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactChoiceList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactsProfileByNumber: {
        parameters: {
            query?: {
                chatappId?: number;
                connectionId?: number;
            };
            header?: never;
            path: {
                number: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactProfile"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["Error404-460d10ee"];
            409: components["responses"]["ERR_SESSION_NOT_CONNECTED"];
            422: components["responses"]["Error422-ab84c912"];
            500: components["responses"]["InternalError"];
        };
    };
    putContactsToggleAcceptAudioByContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    acceptAudioMessage?: boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putContactsToggleDisableBotByContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    disableBot?: boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postContactsUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                    /** Format: binary */
                    files?: string;
                    mapping?: components["schemas"]["Mapping"];
                };
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactImportStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["ERR_IMPORT_TOO_MANY_ROWS"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-f0492ced"];
            500: components["responses"]["InternalError"];
        };
    };
    postContactsImport2: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contacts?: components["schemas"]["Contacts"];
                    email?: string | number | null;
                    importId?: string;
                    mapping?: components["schemas"]["Mapping"];
                    name?: string | number | null;
                    number?: string | number | null;
                };
                "multipart/form-data": {
                    contacts?: components["schemas"]["Contacts"];
                    email?: string | number | null;
                    /** Format: binary */
                    file?: string;
                    /** Format: binary */
                    files?: string;
                    importId?: string;
                    mapping?: components["schemas"]["Mapping"];
                    name?: string | number | null;
                    number?: string | number | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactImportStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_IMPORT_NOT_FOUND"];
            413: components["responses"]["ERR_IMPORT_TOO_MANY_ROWS"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-513f5b62"];
            500: components["responses"]["InternalError"];
        };
    };
    getContactTagsByContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactTags"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    showDashboard: {
        parameters: {
            query?: {
                date_from?: components["parameters"]["DateFromQuery"];
                date_to?: components["parameters"]["DateToQuery"];
                days?: components["parameters"]["Days"];
                queueIds?: components["parameters"]["QueueIdsQuery"];
                "queueIds[]"?: components["parameters"]["QueueIds2"];
                userIds?: components["parameters"]["UserIds"];
                "userIds[]"?: components["parameters"]["UserIdsQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dashboard"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-12"];
            404: components["responses"]["Error404-adf49d16-2"];
            422: components["responses"]["Error422-93d15a12"];
            500: components["responses"]["InternalError"];
        };
    };
    clearDashboardCache: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardCacheCleared"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ERR_CACHE_UNAVAILABLE"];
        };
    };
    dashboardExtendedMetrics: {
        parameters: {
            query?: {
                date_from?: components["parameters"]["DateFromQuery"];
                date_to?: components["parameters"]["DateToQuery"];
                days?: components["parameters"]["Days"];
                granularity?: "day" | "week" | "month";
                queueIds?: components["parameters"]["QueueIdsQuery"];
                "queueIds[]"?: components["parameters"]["QueueIds2"];
                userIds?: components["parameters"]["UserIds"];
                "userIds[]"?: components["parameters"]["UserIdsQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardExtendedMetrics"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-12"];
            404: components["responses"]["Error404-adf49d16-2"];
            422: components["responses"]["Error422-93d15a12"];
            500: components["responses"]["InternalError"];
        };
    };
    dashboardMoments: {
        parameters: {
            query?: {
                dateEnd?: components["parameters"]["DateEnd"];
                dateStart?: components["parameters"]["DateStart"];
                queueIds?: components["parameters"]["QueueIdsQuery"];
                "queueIds[]"?: components["parameters"]["QueueIds2"];
                queuesIds?: components["parameters"]["QueuesIds"];
                showAll?: components["parameters"]["ShowAllQuery"];
                status?: components["parameters"]["Status2"];
                userId?: components["parameters"]["UserIdQuery"];
                userIds?: components["parameters"]["UserIds"];
                "userIds[]"?: components["parameters"]["UserIdsQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDetails"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["Error404-adf49d16-3"];
            422: components["responses"]["Error422-93d15a12"];
            500: components["responses"]["InternalError"];
        };
    };
    refreshDashboardViews: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardRefresh"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            429: components["responses"]["ERR_DASHBOARD_REFRESH_TOO_SOON"];
            500: components["responses"]["InternalError"];
        };
    };
    dashboardTicketsByDay: {
        parameters: {
            query?: {
                companyId?: components["parameters"]["CompanyId3"];
                finalDate?: components["parameters"]["FinalDate"];
                initialDate?: components["parameters"]["InitialDate"];
                queueIds?: components["parameters"]["QueueIdsQuery"];
                "queueIds[]"?: components["parameters"]["QueueIds2"];
                userIds?: components["parameters"]["UserIds"];
                "userIds[]"?: components["parameters"]["UserIdsQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTicketsByDay"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-12"];
            404: components["responses"]["Error404-adf49d16-2"];
            422: components["responses"]["Error422-93d15a12"];
            500: components["responses"]["InternalError"];
        };
    };
    dashboardTicketsByUser: {
        parameters: {
            query?: {
                companyId?: components["parameters"]["CompanyId3"];
                finalDate?: components["parameters"]["FinalDate"];
                initialDate?: components["parameters"]["InitialDate"];
                queueIds?: components["parameters"]["QueueIdsQuery"];
                "queueIds[]"?: components["parameters"]["QueueIds2"];
                userIds?: components["parameters"]["UserIds"];
                "userIds[]"?: components["parameters"]["UserIdsQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTicketsByUser"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-12"];
            404: components["responses"]["Error404-adf49d16-2"];
            422: components["responses"]["Error422-93d15a12"];
            500: components["responses"]["InternalError"];
        };
    };
    dashboardTopContacts: {
        parameters: {
            query?: {
                date_from?: components["parameters"]["DateFromQuery"];
                date_to?: components["parameters"]["DateToQuery"];
                days?: components["parameters"]["Days"];
                limit?: number;
                queueIds?: components["parameters"]["QueueIdsQuery"];
                "queueIds[]"?: components["parameters"]["QueueIds2"];
                userIds?: components["parameters"]["UserIds"];
                "userIds[]"?: components["parameters"]["UserIdsQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardTopContacts"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-12"];
            404: components["responses"]["Error404-adf49d16-2"];
            422: components["responses"]["Error422-93d15a12"];
            500: components["responses"]["InternalError"];
        };
    };
    getDebugQueues: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobQueueHealth"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-f6182128"];
        };
    };
    getFiles: {
        parameters: {
            query?: {
                companyId?: components["parameters"]["CompanyId2"];
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileListPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postFiles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    message?: string | null;
                    name: string;
                    options?: components["schemas"]["Options"];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            409: components["responses"]["ERR_FILE_LIST_NAME_IN_USE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-8c228488"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteFiles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileListsDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            500: components["responses"]["InternalError"];
        };
    };
    getFilesByFileId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fileId: components["parameters"]["FileId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_FILE_LIST_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putFilesByFileId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fileId: components["parameters"]["FileId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    message?: string | null;
                    name?: string;
                    options?: components["schemas"]["Options"];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["Error404-224dae00"];
            409: components["responses"]["ERR_FILE_LIST_NAME_IN_USE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-8c228488"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteFilesByFileId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fileId: components["parameters"]["FileId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileListDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_FILE_LIST_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getFilesList: {
        parameters: {
            query?: {
                companyId?: components["parameters"]["CompanyId2"];
                searchParam?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileListArray"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postFilesUploadListByFileListId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fileListId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    fileId?: number;
                    files?: string[];
                    typeArch?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["Error404-224dae00"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-39539c90"];
            500: components["responses"]["InternalError"];
        };
    };
    aiAgentConfigChat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    config?: components["schemas"]["Config"];
                    messages: {
                        content: string;
                        /** @enum {string} */
                        role: "user" | "assistant";
                    }[];
                    promptId?: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiAgentChat"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            404: components["responses"]["ERR_NO_PROMPT_FOUND-2"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-1cb49613"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-a81edd1b"];
        };
    };
    aiAgentOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiAgentOptions"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            500: components["responses"]["InternalError"];
        };
    };
    listFlows: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createFlow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean;
                    name: string;
                    triggers?: components["schemas"]["Triggers"];
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Flow"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND-2"];
            409: components["responses"]["Error409-8f87db5a"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-47462dda"];
            500: components["responses"]["InternalError"];
        };
    };
    showFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Flow"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["ERR_NO_FLOW_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updateFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    active?: boolean;
                    name?: string;
                    triggers?: components["schemas"]["Triggers"];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Flow"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["Error404-b96e0b8b"];
            409: components["responses"]["Error409-8f87db5a-2"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-47462dda"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["ERR_NO_FLOW_FOUND"];
            409: components["responses"]["ERR_FLOW_IN_USE"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    addFlowEdge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    source: string;
                    sourceHandle: string;
                    target: string;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        edge: components["schemas"]["FlowEdge"];
                        version: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["Error404-a94c4486"];
            409: components["responses"]["ERR_FLOW_VERSION_CONFLICT"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-639366b4"];
            500: components["responses"]["InternalError"];
        };
    };
    removeFlowEdge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                edgeId: string;
                flowId: components["parameters"]["FlowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        version: number;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["Error404-9f048533"];
            409: components["responses"]["ERR_FLOW_VERSION_CONFLICT"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    executeFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    chatappId?: number;
                    contactId?: number;
                    ticketId?: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowRun"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["Error404-ac9c48ee"];
            409: components["responses"]["Error409-7d6eedc0"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-cfe530e9"];
            500: components["responses"]["InternalError"];
        };
    };
    saveFlowGraph: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    edges: components["schemas"]["FlowEdge"][];
                    nodes: ({
                        data?: Record<string, never>;
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "start";
                    } | {
                        data?: components["schemas"]["SaveFlowGraphBodyNodesItemMessageData"];
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "message";
                    } | {
                        data?: components["schemas"]["Data"];
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "question";
                    } | {
                        data?: components["schemas"]["SaveFlowGraphBodyNodesItemConditionData"];
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "condition";
                    } | {
                        data?: {
                            seconds?: number;
                        };
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "interval";
                    } | {
                        data?: components["schemas"]["SaveFlowGraphBodyNodesItemSetVariableData"];
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "setVariable";
                    } | {
                        data?: components["schemas"]["SaveFlowGraphBodyNodesItemTagsData"];
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "tags";
                    } | {
                        data?: components["schemas"]["SaveFlowGraphBodyNodesItemTransferData"];
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "transfer";
                    } | {
                        data?: Record<string, never>;
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "close";
                    } | {
                        data?: components["schemas"]["SaveFlowGraphBodyNodesItemHttpData"];
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "http";
                    } | {
                        data?: {
                            integrationId?: number;
                        };
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "integration";
                    } | {
                        data?: components["schemas"]["SaveFlowGraphBodyNodesItemAiAgentData"];
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "aiAgent";
                    } | {
                        data?: components["schemas"]["SaveFlowGraphBodyNodesItemGoToFlowData"];
                        id: string;
                        position?: components["schemas"]["Position"];
                        /** @enum {string} */
                        type: "goToFlow";
                    })[];
                    version: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Flow"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["ERR_NO_FLOW_FOUND"];
            409: components["responses"]["ERR_FLOW_VERSION_CONFLICT"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-591d23f3"];
            500: components["responses"]["InternalError"];
        };
    };
    addFlowNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data?: Record<string, never>;
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "start";
                } | {
                    data?: components["schemas"]["SaveFlowGraphBodyNodesItemMessageData"];
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "message";
                } | {
                    data?: components["schemas"]["Data"];
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "question";
                } | {
                    data?: components["schemas"]["SaveFlowGraphBodyNodesItemConditionData"];
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "condition";
                } | {
                    data?: {
                        seconds?: number;
                    };
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "interval";
                } | {
                    data?: components["schemas"]["SaveFlowGraphBodyNodesItemSetVariableData"];
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "setVariable";
                } | {
                    data?: components["schemas"]["SaveFlowGraphBodyNodesItemTagsData"];
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "tags";
                } | {
                    data?: components["schemas"]["SaveFlowGraphBodyNodesItemTransferData"];
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "transfer";
                } | {
                    data?: Record<string, never>;
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "close";
                } | {
                    data?: components["schemas"]["SaveFlowGraphBodyNodesItemHttpData"];
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "http";
                } | {
                    data?: {
                        integrationId?: number;
                    };
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "integration";
                } | {
                    data?: components["schemas"]["SaveFlowGraphBodyNodesItemAiAgentData"];
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "aiAgent";
                } | {
                    data?: components["schemas"]["SaveFlowGraphBodyNodesItemGoToFlowData"];
                    position?: components["schemas"]["Position"];
                    /** @enum {string} */
                    type: "goToFlow";
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        node: components["schemas"]["FlowNode"];
                        version: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["ERR_NO_FLOW_FOUND"];
            409: components["responses"]["ERR_FLOW_VERSION_CONFLICT"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-96295ffd"];
            500: components["responses"]["InternalError"];
        };
    };
    updateFlowNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
                nodeId: components["parameters"]["NodeId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    data?: {
                        [key: string]: unknown;
                    };
                    position?: {
                        x: number;
                        y: number;
                    };
                    type?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        node: components["schemas"]["FlowNode"];
                        removedEdgeIds: string[];
                        version: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["Error404-a94c4486"];
            409: components["responses"]["ERR_FLOW_VERSION_CONFLICT"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-96295ffd"];
            500: components["responses"]["InternalError"];
        };
    };
    removeFlowNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
                nodeId: components["parameters"]["NodeId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        removedEdgeIds: string[];
                        version: number;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["Error404-a94c4486"];
            409: components["responses"]["ERR_FLOW_VERSION_CONFLICT"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    publishFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowVersion"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["ERR_NO_FLOW_FOUND"];
            422: components["responses"]["Error422-8672b5a6"];
            500: components["responses"]["InternalError"];
        };
    };
    simulateFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                flowId: components["parameters"]["FlowId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contact?: {
                        email?: string;
                        name?: string;
                        number?: string;
                    };
                    inputs: string[];
                    mocks?: {
                        ai?: string;
                        http?: {
                            [key: string]: {
                                body?: unknown;
                                status: number;
                            };
                        };
                    };
                    variables?: {
                        [key: string]: string;
                    };
                    version?: "draft" | number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowSimulation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["Error404-1e6e1106"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-de749437"];
            500: components["responses"]["InternalError"];
        };
    };
    getInvoices: {
        parameters: {
            query?: {
                companyId?: number;
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoicePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putInvoicesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    detail?: string;
                    dueDate?: string;
                    /** @enum {string} */
                    status?: "open" | "paid" | "cancelled";
                    value?: string | number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_INVOICE_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-74f26d5e"];
            500: components["responses"]["InternalError"];
        };
    };
    getInvoicesByInvoiceid: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                Invoiceid: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_INVOICE_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postLgpdResponse: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    accepted: boolean;
                    ticketId: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_TICKET_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postMessageForward: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contactId: number;
                    messageId: string;
                    signMessage?: boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForwardedMessage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-cb91432e-2"];
            404: components["responses"]["Error404-f17c2de4-2"];
            409: components["responses"]["ERR_MESSAGE_DELETED"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-e0e8f283"];
            500: components["responses"]["InternalError"];
        };
    };
    getMessagesAllMe: {
        parameters: {
            query?: {
                dateEnd?: string;
                dateStart?: string;
                fromMe?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageCount"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["Error422-fb7f324c"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteMessagesByMessageId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                messageId: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-ec5804a8"];
            404: components["responses"]["Error404-f17c2de4"];
            409: components["responses"]["ERR_MESSAGE_NOT_SENT"];
            422: components["responses"]["ERR_REVOKE_NOT_SUPPORTED"];
            500: components["responses"]["InternalError"];
        };
    };
    getMessagesByTicketId: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                selectedQueues?: string;
            };
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketIdPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketMessagePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_TICKET_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postMessagesByTicketId: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: string;
            };
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default  */
                    body?: string | null;
                    isPrivate?: boolean | ("0" | "1" | "true" | "false");
                    quotedMsg?: {
                        id: string;
                    } | null;
                    quotedMsgId?: string | "" | null;
                };
                "multipart/form-data": {
                    /** @default  */
                    body?: string | null;
                    isPrivate?: boolean | ("0" | "1" | "true" | "false");
                    medias?: string[];
                    quotedMsg?: {
                        id: string;
                    } | null;
                    quotedMsgId?: string | "" | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SentMessages"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-cb91432e"];
            404: components["responses"]["Error404-2a8e68d8"];
            409: components["responses"]["Error409-a1746d34"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-877ddefe"];
            500: components["responses"]["InternalError"];
        };
    };
    postMessagesByTicketIdCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    body?: string;
                    categoryId?: number;
                    /** @enum {string} */
                    mode?: "text" | "images";
                    productIds?: number[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SentMessages"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-cb91432e"];
            404: components["responses"]["Error404-17325944"];
            409: components["responses"]["ERR_TICKET_CLOSED-2"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-7ab209dd"];
            500: components["responses"]["InternalError"];
        };
    };
    postMessagesEditByMessageId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                messageId: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-ec5804a8"];
            404: components["responses"]["Error404-f17c2de4"];
            409: components["responses"]["Error409-5fa5c054"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-69bccc90"];
            500: components["responses"]["InternalError"];
        };
    };
    getMessagesMedia: {
        parameters: {
            query: {
                pageNumber?: components["parameters"]["PageNumber"];
                ticketId: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_TICKET_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listObjstoreConfigs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ObjstoreConfigList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-7"];
            500: components["responses"]["InternalError"];
        };
    };
    createObjstoreConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    accessKeyId: string;
                    active?: boolean;
                    bucket: string;
                    endpoint?: string | null;
                    forcePathStyle?: boolean;
                    name: string;
                    prefix?: string | null;
                    /** @enum {string} */
                    provider?: "s3" | "minio" | "r2" | "wasabi" | "spaces" | "other";
                    publicBaseUrl?: string | null;
                    region?: string | null;
                    secretAccessKey?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ObjstoreConfig"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-7"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-c4402144"];
            500: components["responses"]["InternalError"];
        };
    };
    showObjstoreConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ObjstoreConfig"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-7"];
            404: components["responses"]["ERR_NO_OBJSTORE_CONFIG_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updateObjstoreConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    accessKeyId?: string;
                    active?: boolean;
                    bucket?: string;
                    endpoint?: string | null;
                    forcePathStyle?: boolean;
                    name?: string;
                    prefix?: string | null;
                    /** @enum {string} */
                    provider?: "s3" | "minio" | "r2" | "wasabi" | "spaces" | "other";
                    publicBaseUrl?: string | null;
                    region?: string | null;
                    secretAccessKey?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ObjstoreConfig"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-7"];
            404: components["responses"]["ERR_NO_OBJSTORE_CONFIG_FOUND"];
            409: components["responses"]["ERR_OBJSTORE_CONFIG_IN_USE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-c4402144"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteObjstoreConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-7"];
            404: components["responses"]["ERR_NO_OBJSTORE_CONFIG_FOUND"];
            409: components["responses"]["ERR_OBJSTORE_CONFIG_IN_USE"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    testObjstoreConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    accessKeyId?: string;
                    active?: boolean;
                    bucket?: string;
                    endpoint?: string | null;
                    forcePathStyle?: boolean;
                    id?: number;
                    name?: string;
                    prefix?: string | null;
                    /** @enum {string} */
                    provider?: "s3" | "minio" | "r2" | "wasabi" | "spaces" | "other";
                    publicBaseUrl?: string | null;
                    region?: string | null;
                    secretAccessKey?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ObjstoreConnectionTest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-7"];
            404: components["responses"]["ERR_NO_OBJSTORE_CONFIG_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-c4402144"];
            500: components["responses"]["InternalError"];
        };
    };
    listOrderSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderSettingList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    createOrderSetting: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    connectionId?: number | null;
                    currency?: string;
                    paymentInstructions?: string;
                    statusMessages?: components["schemas"]["StatusMessages"];
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderSetting"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_CONNECTION_FOUND"];
            409: components["responses"]["ERR_ORDER_SETTING_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-97225c25"];
            500: components["responses"]["InternalError"];
        };
    };
    showOrderSetting: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderSetting"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_ORDER_SETTING_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updateOrderSetting: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    connectionId?: number | null;
                    currency?: string;
                    paymentInstructions?: string;
                    statusMessages?: components["schemas"]["StatusMessages"];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderSetting"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["Error404-52e0bbe1"];
            409: components["responses"]["ERR_ORDER_SETTING_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-97225c25"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteOrderSetting: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_ORDER_SETTING_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listOrders: {
        parameters: {
            query?: {
                contactId?: number;
                dateFrom?: string;
                dateTo?: string;
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
                status?: "new" | "confirmed" | "paid" | "shipped" | "delivered" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            422: components["responses"]["Error422-fb7f324c"];
            500: components["responses"]["InternalError"];
        };
    };
    createOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    address?: string | null;
                    contactId: number;
                    discount?: number;
                    items: components["schemas"]["Items"];
                    notes?: string;
                    paymentMethod?: string | null;
                    shippingFee?: number;
                    ticketId?: number | null;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["Error404-56cfc96d"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-936e18b0"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteOrders: {
        parameters: {
            query?: {
                ids?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @example [
                     *       101,
                     *       102
                     *     ]
                     */
                    ids?: number[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrdersDeleted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_ORDER_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    showOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_ORDER_FOUND-2"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updateOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    address?: string | null;
                    discount?: number;
                    items?: components["schemas"]["Items"];
                    notes?: string;
                    paymentMethod?: string | null;
                    shippingFee?: number;
                    /** @enum {string} */
                    status?: "new" | "confirmed" | "paid" | "shipped" | "delivered" | "cancelled";
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["Error404-1c657543"];
            409: components["responses"]["ERR_ORDER_STATUS_CONFLICT"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-972db7f8"];
            500: components["responses"]["InternalError"];
        };
    };
    listOrderLogs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orderId: components["parameters"]["OrderId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderLogList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_ORDER_FOUND-2"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listContactOrders: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
            };
            header?: never;
            path: {
                contactId: components["parameters"]["ContactId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_CONTACT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getPlans: {
        parameters: {
            query?: {
                searchParam?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    amount?: string | number;
                    connections?: number;
                    isPublic?: boolean;
                    name: string;
                    queues?: number;
                    /** @enum {string} */
                    recurrence?: "MENSAL" | "BIMESTRAL" | "TRIMESTRAL" | "SEMESTRAL" | "ANUAL";
                    trial?: boolean;
                    trialDays?: number;
                    useCampaigns?: boolean;
                    useExternalApi?: boolean;
                    useIntegrations?: boolean;
                    useInternalChat?: boolean;
                    useKanban?: boolean;
                    useOpenAi?: boolean;
                    users?: number;
                    useSchedules?: boolean;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            409: components["responses"]["ERR_PLAN_NAME_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-26a4e4fc"];
            500: components["responses"]["InternalError"];
        };
    };
    getPlansById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_PLAN_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putPlansById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    amount?: string | number;
                    connections?: number;
                    isPublic?: boolean;
                    name?: string;
                    queues?: number;
                    /** @enum {string} */
                    recurrence?: "MENSAL" | "BIMESTRAL" | "TRIMESTRAL" | "SEMESTRAL" | "ANUAL";
                    trial?: boolean;
                    trialDays?: number;
                    useCampaigns?: boolean;
                    useExternalApi?: boolean;
                    useIntegrations?: boolean;
                    useInternalChat?: boolean;
                    useKanban?: boolean;
                    useOpenAi?: boolean;
                    users?: number;
                    useSchedules?: boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_PLAN_FOUND"];
            409: components["responses"]["ERR_PLAN_NAME_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-26a4e4fc"];
            500: components["responses"]["InternalError"];
        };
    };
    deletePlansById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_PLAN_FOUND"];
            409: components["responses"]["ERR_PLAN_IN_USE"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getPlansAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    getPlansList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanList"];
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getProducts: {
        parameters: {
            query?: {
                active?: boolean | ("0" | "1" | "true" | "false");
                categoryId?: number;
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postProducts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    active?: boolean;
                    categoryId?: number | null;
                    currency?: string;
                    description?: string;
                    name?: string;
                    price?: number;
                    sku?: string | null;
                    stock?: number;
                    trackStock?: boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_CATEGORY_NOT_FOUND"];
            409: components["responses"]["ERR_PRODUCT_SKU_IN_USE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-200e6074"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteProducts: {
        parameters: {
            query?: {
                ids?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @example [
                     *       4,
                     *       7
                     *     ]
                     */
                    ids?: number[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductsDeleted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_PRODUCT_NOT_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getProductsByProductId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                productId: components["parameters"]["ProductId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_PRODUCT_NOT_FOUND-2"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putProductsByProductId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                productId: components["parameters"]["ProductId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    active?: boolean;
                    categoryId?: number | null;
                    currency?: string;
                    description?: string;
                    name?: string;
                    price?: number;
                    sku?: string | null;
                    stock?: number;
                    trackStock?: boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["Error404-d57af9d3"];
            409: components["responses"]["ERR_PRODUCT_SKU_IN_USE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-200e6074"];
            500: components["responses"]["InternalError"];
        };
    };
    postProductsByProductIdImages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                productId: components["parameters"]["ProductId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    file?: string[];
                    images?: string[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_PRODUCT_NOT_FOUND-2"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-d902056c"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteProductsByProductIdImagesByImageId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                imageId: number;
                productId: components["parameters"]["ProductId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["Error404-a8ee8d60"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postProductsImport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                    /** @enum {string} */
                    mode?: "create" | "upsert";
                };
            };
        };
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductImport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            409: components["responses"]["ERR_PRODUCT_IMPORT_IN_PROGRESS"];
            413: components["responses"]["ERR_IMPORT_TOO_MANY_ROWS"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-b840f17b"];
            500: components["responses"]["InternalError"];
        };
    };
    getProductsImportById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductImport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_IMPORT_NOT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getProductsImportStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductImport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_IMPORT_NOT_FOUND"];
            500: components["responses"]["InternalError"];
        };
    };
    listPrompts: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PromptPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    apiKey?: string | null;
                    baseUrl?: string | null;
                    maxMessages?: number | string;
                    maxTokens?: number | string;
                    model?: string | null;
                    name: string;
                    prompt: string;
                    /** @enum {string} */
                    provider?: "openai" | "openai-compatible";
                    queueId?: number | null;
                    temperature?: number | string;
                    voice?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Prompt"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            404: components["responses"]["ERR_QUEUE_NOT_FOUND-2"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-f3848155"];
            500: components["responses"]["InternalError"];
        };
    };
    showPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                promptId: components["parameters"]["PromptId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Prompt"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            404: components["responses"]["ERR_NO_PROMPT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updatePrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                promptId: components["parameters"]["PromptId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    apiKey?: string | null;
                    baseUrl?: string | null;
                    maxMessages?: number | string;
                    maxTokens?: number | string;
                    model?: string | null;
                    name?: string;
                    prompt?: string;
                    /** @enum {string} */
                    provider?: "openai" | "openai-compatible";
                    queueId?: number | null;
                    temperature?: number | string;
                    voice?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Prompt"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            404: components["responses"]["Error404-b089bd19-2"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-f3848155"];
            500: components["responses"]["InternalError"];
        };
    };
    deletePrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                promptId: components["parameters"]["PromptId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            404: components["responses"]["ERR_NO_PROMPT_FOUND"];
            409: components["responses"]["ERR_PROMPT_IN_USE"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listProxies: {
        parameters: {
            query?: {
                status?: "healthy" | "unchecked" | "degraded" | "failing" | "disabled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Proxy"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createProxy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    active?: boolean | ("0" | "1" | "true" | "false");
                    country?: string | null;
                    host: string;
                    maxConnections?: number | null;
                    name: string;
                    password?: string | null;
                    port: number | null;
                    /** @enum {string} */
                    protocol?: "http" | "https" | "socks4" | "socks5";
                    skipCheck?: boolean | ("0" | "1" | "true" | "false");
                    username?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Proxy"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-defa7c23"];
            500: components["responses"]["InternalError"];
        };
    };
    updateProxy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    active?: boolean | ("0" | "1" | "true" | "false");
                    country?: string | null;
                    host?: string;
                    maxConnections?: number | null;
                    name?: string;
                    password?: string | null;
                    port?: number | null;
                    /** @enum {string} */
                    protocol?: "http" | "https" | "socks4" | "socks5";
                    skipCheck?: boolean | ("0" | "1" | "true" | "false");
                    username?: string | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Proxy"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-71c60e80"];
            404: components["responses"]["ERR_NO_PROXY_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-defa7c23"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteProxy: {
        parameters: {
            query?: {
                force?: boolean | ("0" | "1" | "true" | "false");
            };
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-71c60e80"];
            404: components["responses"]["ERR_NO_PROXY_FOUND"];
            409: components["responses"]["ERR_PROXY_IN_USE"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    assignProxy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    proxyId?: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyAssignment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["Error404-fa019557"];
            409: components["responses"]["Error409-b491340d"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_PROXY_NOT_FOR_CONNECTION"];
            500: components["responses"]["InternalError"];
        };
    };
    autoBalanceProxies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyBalanceResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            500: components["responses"]["InternalError"];
        };
    };
    disableProblematicProxy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                proxyId: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyDisableResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-71c60e80"];
            404: components["responses"]["ERR_NO_PROXY_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_PROXY_INVALID_REASON"];
            500: components["responses"]["InternalError"];
        };
    };
    forceReassignProxies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyBalanceResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            500: components["responses"]["InternalError"];
        };
    };
    forceRebalanceAllProxies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyBalanceResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            500: components["responses"]["InternalError"];
        };
    };
    removeProxyAssignment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chatappId: components["parameters"]["ChatappId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyAssignment"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            404: components["responses"]["Error404-fa019557"];
            422: components["responses"]["ERR_PROXY_NOT_FOR_CONNECTION"];
            500: components["responses"]["InternalError"];
        };
    };
    proxyStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProxyStats"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-6"];
            500: components["responses"]["InternalError"];
        };
    };
    getPublicSettingsBySettingKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                settingKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BareSettingValue"];
                };
            };
            404: components["responses"]["ERR_NO_SETTING_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getQueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueWithUsersList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    postQueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    chatbots?: components["schemas"]["ChatbotStep"][];
                    color?: string;
                    greetingMessage?: string | null;
                    /** @example null */
                    integrationId?: number | "" | null;
                    name: string;
                    orderQueue?: number | string;
                    outOfHoursMessage?: string | null;
                    /** @example null */
                    promptId?: number | null;
                    schedules?: components["schemas"]["Schedules"];
                    /**
                     * @example [
                     *       2,
                     *       3
                     *     ]
                     */
                    userIds?: number[];
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueWithUsers"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-f20ade02"];
            404: components["responses"]["Error404-20eb1696"];
            409: components["responses"]["ERR_QUEUE_NAME_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-a605dc00"];
            500: components["responses"]["InternalError"];
        };
    };
    getQueueOptions: {
        parameters: {
            query?: {
                parentId?: ("0" | "null" | "-1") | number;
                queueId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueOptionList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postQueueOptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    closeTicket?: boolean;
                    /** @example null */
                    forwardQueueId?: number | "" | null;
                    /** @example null */
                    forwardUserId?: number | "" | null;
                    message?: string | null;
                    option?: string | number;
                    /** @example null */
                    parentId?: number | "" | null;
                    queueId?: number;
                    title: string;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueOption"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["Error404-c124a2d2"];
            409: components["responses"]["ERR_QUEUE_OPTION_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-2f4caf52"];
            500: components["responses"]["InternalError"];
        };
    };
    getQueueOptionsByQueueOptionId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                queueOptionId: components["parameters"]["QueueOptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueOption"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_QUEUE_OPTION_NOT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putQueueOptionsByQueueOptionId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                queueOptionId: components["parameters"]["QueueOptionId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    closeTicket?: boolean;
                    /** @example null */
                    forwardQueueId?: number | "" | null;
                    /** @example null */
                    forwardUserId?: number | "" | null;
                    message?: string | null;
                    option?: string | number;
                    /** @example null */
                    parentId?: number | "" | null;
                    queueId?: number;
                    title?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueOption"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["Error404-c124a2d2"];
            409: components["responses"]["ERR_QUEUE_OPTION_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-7753bdd4"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteQueueOptionsByQueueOptionId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                queueOptionId: components["parameters"]["QueueOptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueOptionDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_QUEUE_OPTION_NOT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getQueueByQueueId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                queueId: components["parameters"]["QueueId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueWithUsers"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_QUEUE_NOT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putQueueByQueueId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                queueId: components["parameters"]["QueueId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    chatbots?: components["schemas"]["ChatbotStep"][];
                    color?: string;
                    greetingMessage?: string | null;
                    /** @example null */
                    integrationId?: number | "" | null;
                    name?: string;
                    orderQueue?: number | string;
                    outOfHoursMessage?: string | null;
                    /** @example null */
                    promptId?: number | null;
                    schedules?: components["schemas"]["Schedules"];
                    /**
                     * @example [
                     *       2,
                     *       3
                     *     ]
                     */
                    userIds?: number[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueWithUsers"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5"];
            404: components["responses"]["Error404-20eb1696-2"];
            409: components["responses"]["ERR_QUEUE_NAME_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-a605dc00"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteQueueByQueueId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                queueId: components["parameters"]["QueueId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_QUEUE_NOT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getQueueUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    getQueueIntegration: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueIntegrationPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postQueueIntegration: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @example {
                     *       "flow": "sales"
                     *     }
                     */
                    config?: {
                        [key: string]: unknown;
                    } | null;
                    /** @example null */
                    language?: string | number | null;
                    name?: string;
                    /** @example null */
                    projectName?: string | number | null;
                    /** @example null */
                    secret?: string | null;
                    token?: string | null;
                    type?: string;
                    /** @example null */
                    typebotDelayMessage?: string | number | null;
                    /** @example null */
                    typebotExpires?: string | number | null;
                    /** @example null */
                    typebotKeywordFinish?: string | number | null;
                    /** @example null */
                    typebotKeywordRestart?: string | number | null;
                    /** @example null */
                    typebotRestartMessage?: string | number | null;
                    /** @example null */
                    typebotSlug?: string | number | null;
                    /** @example null */
                    typebotUnknownMessage?: string | number | null;
                    url?: string;
                    urlN8N?: string;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueIntegration"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5"];
            409: components["responses"]["ERR_INTEGRATION_NAME_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-323e3ac4"];
            500: components["responses"]["InternalError"];
        };
    };
    getQueueIntegrationByIntegrationId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                integrationId: components["parameters"]["IntegrationId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueIntegration"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5"];
            404: components["responses"]["ERR_INTEGRATION_NOT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putQueueIntegrationByIntegrationId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                integrationId: components["parameters"]["IntegrationId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @example {
                     *       "flow": "sales"
                     *     }
                     */
                    config?: {
                        [key: string]: unknown;
                    } | null;
                    /** @example null */
                    language?: string | number | null;
                    name?: string;
                    /** @example null */
                    projectName?: string | number | null;
                    /** @example null */
                    secret?: string | null;
                    token?: string | null;
                    type?: string;
                    /** @example null */
                    typebotDelayMessage?: string | number | null;
                    /** @example null */
                    typebotExpires?: string | number | null;
                    /** @example null */
                    typebotKeywordFinish?: string | number | null;
                    /** @example null */
                    typebotKeywordRestart?: string | number | null;
                    /** @example null */
                    typebotRestartMessage?: string | number | null;
                    /** @example null */
                    typebotSlug?: string | number | null;
                    /** @example null */
                    typebotUnknownMessage?: string | number | null;
                    url?: string;
                    urlN8N?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueIntegration"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5"];
            404: components["responses"]["ERR_INTEGRATION_NOT_FOUND"];
            409: components["responses"]["ERR_INTEGRATION_NAME_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-323e3ac4"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteQueueIntegrationByIntegrationId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                integrationId: components["parameters"]["IntegrationId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueIntegrationDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5"];
            404: components["responses"]["ERR_INTEGRATION_NOT_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postQueueIntegrationTestsession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @example {
                     *       "flow": "sales"
                     *     }
                     */
                    config?: {
                        [key: string]: unknown;
                    } | null;
                    integrationId?: number;
                    /** @example null */
                    language?: string | number | null;
                    name?: string;
                    /** @example null */
                    projectName?: string | number | null;
                    /** @example null */
                    secret?: string | null;
                    token?: string | null;
                    type?: string;
                    /** @example null */
                    typebotDelayMessage?: string | number | null;
                    /** @example null */
                    typebotExpires?: string | number | null;
                    /** @example null */
                    typebotKeywordFinish?: string | number | null;
                    /** @example null */
                    typebotKeywordRestart?: string | number | null;
                    /** @example null */
                    typebotRestartMessage?: string | number | null;
                    /** @example null */
                    typebotSlug?: string | number | null;
                    /** @example null */
                    typebotUnknownMessage?: string | number | null;
                    url?: string;
                    urlN8N?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueueIntegrationTestResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5"];
            404: components["responses"]["ERR_INTEGRATION_NOT_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-2dd70db6"];
            500: components["responses"]["InternalError"];
        };
    };
    listSchedules: {
        parameters: {
            query?: {
                contactId?: number;
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
                status?: "PENDENTE" | "ENVIADA" | "ERRO" | "PERDIDA";
                userId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SchedulePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED-2"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    assinar?: (boolean | ("0" | "1" | "true" | "false" | "")) | null;
                    body?: string;
                    chatappId?: number | string | null | 0 | unknown[];
                    contactId?: number | string | null | 0 | unknown[];
                    enviarQuantasVezes?: number | string;
                    intervalo?: number | string;
                    openTicket?: ("enabled" | "disabled") | boolean | "" | null;
                    queueId?: number | string | null | 0 | unknown[];
                    repeatUntil?: string | null;
                    sendAt?: string;
                    statusTicket?: ("open" | "pending" | "closed") | "" | null;
                    ticketUserId?: number | string | null | 0 | unknown[];
                    tipoDias?: number | string;
                    valorIntervalo?: number | string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED-2"];
            404: components["responses"]["Error404-9c33701d"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-1e4127bb"];
            500: components["responses"]["InternalError"];
        };
    };
    listScheduledMessages: {
        parameters: {
            query?: {
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduledMessagePage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED-2"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    createScheduledMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contatos?: (number | string)[] | string;
                    criar_ticket?: boolean | ("0" | "1" | "true" | "false" | "");
                    data_mensagem_programada?: string;
                    enviar_quantas_vezes?: number | string;
                    id_conexao?: number | string | null | 0 | unknown[];
                    intervalo?: number | string;
                    mensagem?: string;
                    mostrar_usuario_mensagem?: boolean | ("0" | "1" | "true" | "false" | "");
                    nome?: string;
                    repeatUntil?: string | null;
                    tags?: (number | string)[] | string;
                    tipo_dias_envio?: number | string;
                    usuario_envio?: number | string | null | 0 | unknown[];
                    valor_intervalo?: number | string;
                };
                "multipart/form-data": {
                    contatos?: (number | string)[] | string;
                    criar_ticket?: boolean | ("0" | "1" | "true" | "false" | "");
                    data_mensagem_programada?: string;
                    enviar_quantas_vezes?: number | string;
                    /** Format: binary */
                    file?: string;
                    id_conexao?: number | string | null | 0 | unknown[];
                    intervalo?: number | string;
                    mensagem?: string;
                    mostrar_usuario_mensagem?: boolean | ("0" | "1" | "true" | "false" | "");
                    nome?: string;
                    repeatUntil?: string | null;
                    tags?: (number | string)[] | string;
                    tipo_dias_envio?: number | string;
                    usuario_envio?: number | string | null | 0 | unknown[];
                    valor_intervalo?: number | string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduledMessage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED-2"];
            404: components["responses"]["Error404-9c33701d"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-1084cd26"];
            500: components["responses"]["InternalError"];
        };
    };
    showScheduledMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduledMessageWithOccurrences"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED-2"];
            404: components["responses"]["ERR_NO_SCHEDULE_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updateScheduledMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contatos?: (number | string)[] | string;
                    criar_ticket?: boolean | ("0" | "1" | "true" | "false" | "");
                    data_mensagem_programada?: string;
                    enviar_quantas_vezes?: number | string;
                    id_conexao?: number | string | null | 0 | unknown[];
                    intervalo?: number | string;
                    mensagem?: string;
                    mostrar_usuario_mensagem?: boolean | ("0" | "1" | "true" | "false" | "");
                    nome?: string;
                    repeatUntil?: string | null;
                    tags?: (number | string)[] | string;
                    tipo_dias_envio?: number | string;
                    usuario_envio?: number | string | null | 0 | unknown[];
                    valor_intervalo?: number | string;
                };
                "multipart/form-data": {
                    contatos?: (number | string)[] | string;
                    criar_ticket?: boolean | ("0" | "1" | "true" | "false" | "");
                    data_mensagem_programada?: string;
                    enviar_quantas_vezes?: number | string;
                    /** Format: binary */
                    file?: string;
                    id_conexao?: number | string | null | 0 | unknown[];
                    intervalo?: number | string;
                    mensagem?: string;
                    mostrar_usuario_mensagem?: boolean | ("0" | "1" | "true" | "false" | "");
                    nome?: string;
                    repeatUntil?: string | null;
                    tags?: (number | string)[] | string;
                    tipo_dias_envio?: number | string;
                    usuario_envio?: number | string | null | 0 | unknown[];
                    valor_intervalo?: number | string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduledMessage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-4"];
            404: components["responses"]["Error404-98c81559"];
            409: components["responses"]["ERR_SCHEDULE_SENDING"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-1084cd26"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteScheduledMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-4"];
            404: components["responses"]["ERR_NO_SCHEDULE_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    setScheduleMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleMediaAnswer"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-4"];
            404: components["responses"]["ERR_NO_SCHEDULE_FOUND"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-bd9e8fe1-2"];
            500: components["responses"]["InternalError"];
        };
    };
    removeScheduleMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleMediaAnswer"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-4"];
            404: components["responses"]["ERR_NO_SCHEDULE_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    showSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleWithOccurrences"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED-2"];
            404: components["responses"]["ERR_NO_SCHEDULE_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    updateSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    assinar?: (boolean | ("0" | "1" | "true" | "false" | "")) | null;
                    body?: string;
                    chatappId?: number | string | null | 0 | unknown[];
                    contactId?: number | string | null | 0 | unknown[];
                    enviarQuantasVezes?: number | string;
                    intervalo?: number | string;
                    openTicket?: ("enabled" | "disabled") | boolean | "" | null;
                    queueId?: number | string | null | 0 | unknown[];
                    repeatUntil?: string | null;
                    sendAt?: string;
                    statusTicket?: ("open" | "pending" | "closed") | "" | null;
                    ticketUserId?: number | string | null | 0 | unknown[];
                    tipoDias?: number | string;
                    valorIntervalo?: number | string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Schedule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-4"];
            404: components["responses"]["Error404-98c81559"];
            409: components["responses"]["ERR_SCHEDULE_SENDING"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-1e4127bb"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                scheduleId: components["parameters"]["ScheduleId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-4"];
            404: components["responses"]["ERR_NO_SCHEDULE_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postSendBizchatTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    chatappId?: number;
                    language: string;
                    number?: string;
                    /** @default {} */
                    parameters?: {
                        body?: string[];
                        buttons?: string[];
                        header?: string[];
                    };
                    templateName: string;
                    ticketId?: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        body: string;
                        messageId: string;
                        template: {
                            language: string;
                            name: string;
                        };
                        ticketId: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-cb91432e-3"];
            404: components["responses"]["Error404-312de39e"];
            409: components["responses"]["ERR_TICKET_CLOSED"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-d70bc742"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ERR_BIZCHAT_PROVIDER_UNAVAILABLE-3"];
        };
    };
    getSettingBySettingKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                settingKey: components["parameters"]["SettingKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Setting"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_SETTING_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putSettingBySettingKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                settingKey: components["parameters"]["SettingKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    value: string | number | boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Setting"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_SETTING_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-47909860"];
            500: components["responses"]["InternalError"];
        };
    };
    getSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    postSettingsWhitelabelLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Setting"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-b5398617"];
            500: components["responses"]["InternalError"];
        };
    };
    postSettingsWhitelabelLogo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                    mode: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BareSettingValue"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-4cf76003"];
            500: components["responses"]["InternalError"];
        };
    };
    getSettingsBySettingKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                settingKey: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Setting"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_SETTING_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putSettingsBySettingKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                settingKey: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    value: string | number | boolean;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Setting"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_SETTING_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-47909860"];
            500: components["responses"]["InternalError"];
        };
    };
    postSettingsPrivateFile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                    settingKey: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PrivateSettingFile"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_SETTING_FOUND"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_NO_FILE"];
            500: components["responses"]["InternalError"];
        };
    };
    postSocialnet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    channel?: "facebook" | "instagram";
                    complationMessage?: string | null;
                    externalId?: string | null;
                    farewellMessage?: string | null;
                    greetingMessage?: string | null;
                    isDefault?: boolean;
                    name: string;
                    outOfHoursMessage?: string | null;
                    pageAccessToken?: string;
                    pageId?: string;
                    promptId?: number | null;
                    provider?: ("sandbox" | "baileys" | "messenger" | "instagram" | "cloudapi") | ("beta" | "stable");
                    queueIds?: number[];
                    reopenWindowMinutes?: number;
                    secrets?: {
                        [key: string]: string;
                    };
                    token?: string | null;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionWithQueues"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-4bb35e7f"];
            404: components["responses"]["Error404-b089bd19"];
            409: components["responses"]["Error409-cb93c614"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-2f47335f"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ERR_GRAPH_API_UNAVAILABLE"];
        };
    };
    postSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    invoiceId: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PixCharge"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_INVOICE_FOUND"];
            409: components["responses"]["Error409-591d2a40"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_URL_NOT_ALLOWED"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-653ef9c7"];
        };
    };
    postSubscriptionCreateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingWebhook"];
                };
            };
            401: components["responses"]["ERR_INVALID_WEBHOOK_SECRET"];
            422: components["responses"]["ERR_URL_NOT_ALLOWED"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-653ef9c7"];
        };
    };
    deleteSubscriptionCreateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingWebhook"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ERR_PAYMENT_GATEWAY_UNAVAILABLE"];
        };
    };
    postSubscriptionReturnRETURNTOKENPix: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentNotificationReceipt"];
                };
            };
            401: components["responses"]["ERR_INVALID_PAYMENT_SIGNATURE"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-b6eea052"];
        };
    };
    getTagKanban: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KanbanLaneTags"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
        };
    };
    getTags: {
        parameters: {
            query?: {
                kanban?: components["parameters"]["Kanban"];
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    color?: string;
                    kanban?: boolean | 0 | 1;
                    laneOrder?: number;
                    name: string;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tag"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            409: components["responses"]["ERR_TAG_NAME_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-e45c47b6"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteTagsContactsByTagIdAndContactId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contactId: number;
                tagId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactTags"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["Error404-f03c5cec"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getTagsByTagId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tagId: components["parameters"]["TagId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tag"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["ERR_NO_TAG_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putTagsByTagId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tagId: components["parameters"]["TagId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    color?: string;
                    kanban?: boolean | 0 | 1;
                    laneOrder?: number;
                    name?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tag"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_TAG_FOUND"];
            409: components["responses"]["ERR_TAG_NAME_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-e45c47b6"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteTagsByTagId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tagId: components["parameters"]["TagId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-3"];
            404: components["responses"]["ERR_NO_TAG_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getTagsList: {
        parameters: {
            query?: {
                kanban?: components["parameters"]["Kanban"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postTagsSync: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contactId?: number;
                    /**
                     * @example [
                     *       7,
                     *       9
                     *     ]
                     */
                    tagIds?: number[];
                    tags?: {
                        id: number;
                    }[];
                    ticketId?: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketTags"] | components["schemas"]["ContactTags"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-4"];
            404: components["responses"]["Error404-20474137"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-2cd298cb"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteTicketTagsByTicketId: {
        parameters: {
            query?: {
                lanesOnly?: boolean | ("0" | "1" | "true" | "false");
            };
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDetails"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-4"];
            404: components["responses"]["ERR_NO_TICKET_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putTicketTagsByTicketIdAndTagId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tagId: number | "lane0";
                ticketId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDetails"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION-4"];
            404: components["responses"]["Error404-4ba8adcc"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getTicketKanban: {
        parameters: {
            query?: {
                chatappId?: components["parameters"]["ChatappIdQuery"];
                chatapps?: components["parameters"]["Chatapps"];
                date?: components["parameters"]["Date"];
                dateFrom?: components["parameters"]["DateFrom"];
                dateTo?: components["parameters"]["DateTo"];
                endDate?: string;
                isGroup?: components["parameters"]["IsGroup"];
                pageNumber?: components["parameters"]["PageNumber"];
                queueIds?: components["parameters"]["QueueIds"];
                searchOnMessages?: components["parameters"]["SearchOnMessages"];
                searchParam?: components["parameters"]["SearchParamQuery"];
                showAll?: components["parameters"]["ShowAll"];
                sortTickets?: components["parameters"]["SortTickets"];
                startDate?: string;
                status?: "open" | "pending";
                tags?: components["parameters"]["Tags"];
                updatedAt?: components["parameters"]["UpdatedAt"];
                users?: components["parameters"]["Users"];
                withUnreadMessages?: components["parameters"]["WithUnreadMessages"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketKanban"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["Error422-fb7f324c"];
            500: components["responses"]["InternalError"];
        };
    };
    getTicketreportReports: {
        parameters: {
            query?: {
                dateFrom?: string;
                dateTo?: string;
                pageNumber?: components["parameters"]["PageNumber"];
                status?: ("pending" | "open" | "closed")[];
                userId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketReport"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            422: components["responses"]["Error422-fb7f324c"];
            500: components["responses"]["InternalError"];
        };
    };
    getTickets: {
        parameters: {
            query?: {
                chatappId?: components["parameters"]["ChatappIdQuery"];
                chatapps?: components["parameters"]["Chatapps"];
                date?: components["parameters"]["Date"];
                dateFrom?: components["parameters"]["DateFrom"];
                dateTo?: components["parameters"]["DateTo"];
                isGroup?: components["parameters"]["IsGroup"];
                pageNumber?: components["parameters"]["PageNumber"];
                queueIds?: components["parameters"]["QueueIds"];
                searchOnMessages?: components["parameters"]["SearchOnMessages"];
                searchParam?: components["parameters"]["SearchParamQuery"];
                showAll?: components["parameters"]["ShowAll"];
                sortTickets?: components["parameters"]["SortTickets"];
                status?: components["parameters"]["StatusQuery"];
                statusFilter?: components["parameters"]["StatusFilter"];
                tags?: components["parameters"]["Tags"];
                updatedAt?: components["parameters"]["UpdatedAt"];
                users?: components["parameters"]["Users"];
                withUnreadMessages?: components["parameters"]["WithUnreadMessages"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["Error422-fb7f324c"];
            500: components["responses"]["InternalError"];
        };
    };
    postTickets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    chatappId?: number | null;
                    contactId: number;
                    queueId?: number | null;
                    /** @enum {string} */
                    status?: "open" | "pending" | "group";
                    userId?: number | null;
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["Error404-99f10d47"];
            409: components["responses"]["ERR_OTHER_OPEN_TICKET"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_PENDING_TICKET_HAS_NO_USER"];
            500: components["responses"]["InternalError"];
        };
    };
    getTicketsLogByTicketId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketLogEntry"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_TICKET_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getTicketsByTicketId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDetails"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_TICKET_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putTicketsByTicketId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    markUnread?: boolean;
                    queueId?: number | null;
                    rating?: number;
                    sendFarewellMessage?: boolean;
                    /** @enum {string} */
                    status?: "pending" | "open" | "closed" | "group";
                    userId?: number | null;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["Error404-6d88cf78"];
            409: components["responses"]["ERR_TICKET_CLOSED"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-06713d5f"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteTicketsByTicketId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_TICKET_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putTicketsByTicketIdIgnore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDetails"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_TICKET_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postTicketsCloseAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    status?: "pending" | "open" | "group";
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketsClosed"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getTicketsCount: {
        parameters: {
            query?: {
                chatappId?: components["parameters"]["ChatappIdQuery"];
                chatapps?: components["parameters"]["Chatapps"];
                date?: components["parameters"]["Date"];
                dateFrom?: components["parameters"]["DateFrom"];
                dateTo?: components["parameters"]["DateTo"];
                isGroup?: components["parameters"]["IsGroup"];
                queueIds?: components["parameters"]["QueueIds"];
                searchOnMessages?: components["parameters"]["SearchOnMessages"];
                searchParam?: components["parameters"]["SearchParamQuery"];
                showAll?: components["parameters"]["ShowAll"];
                sortTickets?: components["parameters"]["SortTickets"];
                status?: components["parameters"]["StatusQuery"];
                statusFilter?: components["parameters"]["StatusFilter"];
                tags?: components["parameters"]["Tags"];
                updatedAt?: components["parameters"]["UpdatedAt"];
                users?: components["parameters"]["Users"];
                withUnreadMessages?: components["parameters"]["WithUnreadMessages"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketCount"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["Error422-fb7f324c"];
            500: components["responses"]["InternalError"];
        };
    };
    getTicketsUByUuid: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDetails"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_TICKET_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    listTranscriptionCredentials: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranscriptionCredential"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            500: components["responses"]["InternalError"];
        };
    };
    createTranscriptionCredential: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    apiKey?: string | null;
                    baseUrl?: string | null;
                    isDefault?: boolean | ("0" | "1" | "true" | "false");
                    language?: string | null;
                    model?: string | null;
                    name: string;
                    /** @enum {string} */
                    provider?: "openai" | "openai-compatible";
                    test?: boolean | ("0" | "1" | "true" | "false");
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedTranscriptionCredential"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            409: components["responses"]["ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-543328a5"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-66610fb9"];
        };
    };
    updateTranscriptionCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    apiKey?: string | null;
                    baseUrl?: string | null;
                    isDefault?: boolean | ("0" | "1" | "true" | "false");
                    language?: string | null;
                    model?: string | null;
                    name?: string;
                    /** @enum {string} */
                    provider?: "openai" | "openai-compatible";
                    test?: boolean | ("0" | "1" | "true" | "false");
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedTranscriptionCredential"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            404: components["responses"]["ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND"];
            409: components["responses"]["ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-543328a5"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-66610fb9"];
        };
    };
    deleteTranscriptionCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedMessage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            404: components["responses"]["ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND"];
            409: components["responses"]["ERR_TRANSCRIPTION_CREDENTIAL_IS_DEFAULT"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    showDefaultTranscriptionCredential: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranscriptionCredential"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_PLAN_FEATURE_DISABLED-3"];
            404: components["responses"]["ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND"];
            500: components["responses"]["InternalError"];
        };
    };
    setDefaultTranscriptionCredential: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credentialId?: number;
                    id?: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranscriptionCredential"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-5"];
            404: components["responses"]["ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    transcribeTicket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketIdPath"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    credentialId?: number;
                    force?: boolean | ("0" | "1" | "true" | "false");
                    language?: string | null;
                    messageId?: string;
                    messageIds?: string[];
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranscriptionResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-244b99c5-6"];
            404: components["responses"]["Error404-c0f711c2"];
            413: components["responses"]["ERR_AUDIO_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-060d3145"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Error503-66610fb9-2"];
        };
    };
    getUsers: {
        parameters: {
            query?: {
                companyId?: components["parameters"]["CompanyId"];
                pageNumber?: components["parameters"]["PageNumber"];
                searchParam?: components["parameters"]["SearchParam"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPage"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    allHistoric?: "enabled" | "disabled";
                    /** @enum {string} */
                    allowConnections?: "enabled" | "disabled";
                    allowGroup?: boolean | ("0" | "1" | "true" | "false");
                    /** @enum {string} */
                    allowRealTime?: "enabled" | "disabled";
                    /** @enum {string} */
                    allTicket?: "enable" | "disable";
                    /** @enum {string} */
                    allUserChat?: "enabled" | "disabled";
                    chatappId?: number | "" | false | null;
                    companyId?: number;
                    /** @enum {string} */
                    defaultMenu?: "open" | "closed";
                    /** @enum {string} */
                    defaultTheme?: "light" | "dark";
                    /** Format: email */
                    email: string;
                    endWork?: string | "" | null;
                    farewellMessage?: string | null;
                    name: string;
                    password: string;
                    /** @enum {string} */
                    profile?: "user" | "admin" | "super";
                    queueIds?: number[];
                    /** @enum {string} */
                    showDashboard?: "enabled" | "disabled";
                    startWork?: string | "" | null;
                    super?: boolean;
                    /** @enum {string} */
                    userClosePendingTicket?: "enabled" | "disabled";
                };
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-1517e36e"];
            404: components["responses"]["Error404-c6f4d9c3"];
            409: components["responses"]["ERR_EMAIL_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-c6e9c621"];
            500: components["responses"]["InternalError"];
        };
    };
    getUsersByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDetails"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_USER_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putUsersByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    allHistoric?: "enabled" | "disabled";
                    /** @enum {string} */
                    allowConnections?: "enabled" | "disabled";
                    allowGroup?: boolean | ("0" | "1" | "true" | "false");
                    /** @enum {string} */
                    allowRealTime?: "enabled" | "disabled";
                    /** @enum {string} */
                    allTicket?: "enable" | "disable";
                    /** @enum {string} */
                    allUserChat?: "enabled" | "disabled";
                    chatappId?: number | "" | false | null;
                    /** @enum {string} */
                    defaultMenu?: "open" | "closed";
                    /** @enum {string} */
                    defaultTheme?: "light" | "dark";
                    /** Format: email */
                    email?: string;
                    endWork?: string | "" | null;
                    farewellMessage?: string | null;
                    name?: string;
                    password?: string;
                    /** @enum {string} */
                    profile?: "user" | "admin" | "super";
                    queueIds?: number[];
                    /** @enum {string} */
                    showDashboard?: "enabled" | "disabled";
                    startWork?: string | "" | null;
                    super?: boolean;
                    /** @enum {string} */
                    userClosePendingTicket?: "enabled" | "disabled";
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDetails"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-4281bb79"];
            404: components["responses"]["Error404-0ec45db1"];
            409: components["responses"]["ERR_EMAIL_ALREADY_EXISTS"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-c6e9c621"];
            500: components["responses"]["InternalError"];
        };
    };
    deleteUsersByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDeleted"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Error403-61f0dcc5"];
            404: components["responses"]["ERR_NO_USER_FOUND"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postUsersByUserIdMediaUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** Format: binary */
                    file?: string;
                    /** Format: binary */
                    profileImage?: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserAvatarSet"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_USER_FOUND"];
            413: components["responses"]["ERR_FILE_TOO_LARGE"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Error422-b5398617"];
            500: components["responses"]["InternalError"];
        };
    };
    getUsersList: {
        parameters: {
            query?: {
                companyId?: components["parameters"]["CompanyId"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserSummaryList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    putUsersToggleChangeWidhtByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    defaultTicketsManagerWidth?: number;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["ERR_NO_PERMISSION"];
            404: components["responses"]["ERR_NO_USER_FOUND"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ERR_INVALID_WIDTH"];
            500: components["responses"]["InternalError"];
        };
    };
    usersMoments: {
        parameters: {
            query?: {
                dateEnd?: components["parameters"]["DateEnd"];
                dateStart?: components["parameters"]["DateStart"];
                queueIds?: components["parameters"]["QueueIdsQuery"];
                "queueIds[]"?: components["parameters"]["QueueIds2"];
                queuesIds?: components["parameters"]["QueuesIds"];
                showAll?: components["parameters"]["ShowAllQuery"];
                status?: components["parameters"]["Status2"];
                userId?: components["parameters"]["UserIdQuery"];
                userIds?: components["parameters"]["UserIds"];
                "userIds[]"?: components["parameters"]["UserIdsQuery"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketDetails"][];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["Error404-adf49d16-3"];
            422: components["responses"]["Error422-93d15a12"];
            500: components["responses"]["InternalError"];
        };
    };
    getVersion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionInfo"];
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    postVersion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    version: string;
                };
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionCompatibility"];
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    getWebhook: {
        parameters: {
            query?: {
                "hub.challenge"?: components["parameters"]["HubChallenge"];
                "hub.mode"?: components["parameters"]["HubMode"];
                "hub.verify_token"?: components["parameters"]["HubVerifyToken"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": components["schemas"]["WebhookChallenge"];
                };
            };
            403: components["responses"]["ERR_WEBHOOK_VERIFICATION_FAILED"];
            422: components["responses"]["ValidationFailed"];
            500: components["responses"]["InternalError"];
        };
    };
    postWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookReceipt"];
                };
            };
            400: components["responses"]["Error400-28729174"];
            401: components["responses"]["ERR_INVALID_SIGNATURE"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["ERR_VALIDATION"];
            500: components["responses"]["InternalError"];
        };
    };
}
