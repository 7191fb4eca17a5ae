// <attention-playground> and the notebook widget: step 3.
